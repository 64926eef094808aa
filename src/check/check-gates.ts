import type { HostCapabilities } from '../sandbox/index.js';
import type { Case } from '../types/case.js';
import type { CheckOutcome } from './check-repro.js';
import { GateKeeper, type GateVerdict } from '../attempt/gates.js';
import { inFixtureSandbox } from './fixture-sandbox.js';

export interface GateCheckContext {
  readonly runDir: string;
  readonly timeScale: number;
  readonly verifyFloorMs: number;
  readonly capabilities: HostCapabilities;
  readonly attemptId: (check: string) => string;
}

/**
 * The case's gates, as the agent's finish would run them (no hidden/): on the untouched workspace a hang must
 * fail one (a gate that passes unfixed checks nothing) and a control must pass them; after solution.patch all pass.
 */
export async function checkGates(testCase: Case, context: GateCheckContext): Promise<CheckOutcome> {
  if (testCase.gates.length === 0) return { ok: null, reason: 'no gates' };
  const untouched = await gateRound(testCase, context, 'untouched');
  if (typeof untouched === 'string') return { ok: false, reason: untouched };
  const count = `${testCase.gates.length} gate${testCase.gates.length === 1 ? '' : 's'}`;
  if (testCase.kind === 'hang' && untouched.kind === 'passed')
    return { ok: false, reason: `${count} pass without the fix` };
  if (testCase.kind === 'control' && untouched.kind !== 'passed')
    return { ok: false, reason: `untouched: ${failureText(untouched)}` };
  const patched = await gateRound(testCase, context, 'patched');
  if (typeof patched === 'string') return { ok: false, reason: patched };
  if (patched.kind !== 'passed') return { ok: false, reason: `patched: ${failureText(patched)}` };
  return {
    ok: true,
    reason: untouched.kind === 'passed' ? `${count} pass` : `${failureText(untouched)} → pass patched`,
  };
}

function failureText(verdict: Exclude<GateVerdict, { kind: 'passed' }>): string {
  return `gate ${verdict.failure.gate + 1} ${verdict.failure.timedOut ? 'hangs' : 'fails'}`;
}

/** One round of gates in a fresh sandbox; a string when the patch does not apply. */
async function gateRound(
  testCase: Case,
  context: GateCheckContext,
  state: 'untouched' | 'patched',
): Promise<GateVerdict | string> {
  const check = { attemptId: context.attemptId(`gates-${state}`), name: `gates-${state}`, state };
  const verdict = await inFixtureSandbox(testCase, context, check, ({ sandbox, trace, logDir }) => {
    const settings = {
      timeScale: context.timeScale,
      floorMs: context.verifyFloorMs,
      terminal: testCase.terminal,
      logDir,
    };
    return new GateKeeper(testCase.gates, sandbox, trace, settings).onFinish();
  });
  return 'patchError' in verdict ? verdict.patchError : verdict;
}
