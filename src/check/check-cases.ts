import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { agentTraits, createAgentFactory } from '../agents/registry.js';
import { loadTokenizer } from '../agents/tokens.js';
import { missedScores } from '../scorers/index.js';
import { probeHost } from '../sandbox/index.js';
import type { HostCapabilities } from '../sandbox/index.js';
import type { Case } from '../types/case.js';
import { caseClass } from '../types/case.js';
import { formatDuration } from '../types/duration.js';
import type { CaseProblem } from '../types/errors.js';
import type { AttemptScores } from '../types/scores.js';
import { checkGates } from './check-gates.js';
import { inFixtureSandbox } from './fixture-sandbox.js';
import { checkRepro, type CheckOutcome } from './check-repro.js';
import { loadCases } from '../cases/load-cases.js';
import { DEFAULTS } from '../defaults.js';
import { resolveOptions } from '../run/index.js';
import { runPool } from '../run/index.js';
import { runAttempt } from '../attempt/run-attempt.js';
import { hiddenLayers, runVerify } from '../attempt/verify.js';
import { makeDirs } from '../trace/make-dirs.js';

export { HANG_TICKS, type CheckOutcome } from './check-repro.js';

/** check-cases runs at a tenth of real time unless told otherwise: it is a CI gate, and relative timing is kept. */
const CHECK_TIME_SCALE = DEFAULTS.checkTimeScale;

/** The checks, in the order they run and are shown. */
export const CHECK_NAMES = ['repro', 'verifyUntouched', 'verifyPatched', 'gates', 'oracle', 'nop'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];
const TIMED_CHECKS: readonly CheckName[] = ['repro', 'oracle'];

export interface CheckCasesInput {
  readonly caseInputs?: readonly string[];
  readonly timeScale?: number;
  readonly concurrency?: number;
  /** results folder; the checks' traces and logs go to <out>/<runId>/<case>/. */
  readonly out?: string;
  readonly runId?: string;
  readonly cwd?: string;
}

/** Whether one case is sound: every applicable check passed. */
export interface CaseSoundness {
  readonly caseId: string;
  readonly file: string;
  readonly kind: Case['kind'];
  readonly class: string;
  readonly terminal: Case['terminal'];
  readonly sound: boolean;
  readonly checks: Readonly<Record<CheckName, CheckOutcome>>;
  readonly wallMs: number;
}

export interface CheckCasesResult {
  readonly runDir: string;
  readonly timeScale: number;
  readonly cases: readonly CaseSoundness[];
  /** case files that did not load: they are unsound too. */
  readonly problems: readonly CaseProblem[];
  readonly sound: boolean;
  readonly wallMs: number;
  readonly interrupted: boolean;
}

export interface CheckHooks {
  readonly shutdown?: AbortSignal;
  readonly onCase?: (result: CaseSoundness) => void;
}

interface CheckContext {
  readonly runId: string;
  readonly runDir: string;
  readonly cwd: string;
  readonly timeScale: number;
  readonly verifyFloorMs: number;
  readonly capabilities: HostCapabilities;
  readonly shutdown: AbortSignal;
}

/**
 * Proves each case sound, reusing the runner: the repro hangs (or a control finishes), the hidden verify fails on
 * the untouched workspace (hangs) and passes after solution.patch, so do the gates, the oracle solves it (passing
 * every gate) and nop does not.
 */
export async function checkCases(input: CheckCasesInput, hooks: CheckHooks = {}): Promise<CheckCasesResult> {
  const started = performance.now();
  const options = resolveOptions({
    caseInputs: input.caseInputs,
    timeScale: input.timeScale ?? CHECK_TIME_SCALE,
    concurrency: input.concurrency,
    out: input.out,
    runId: input.runId,
    cwd: input.cwd,
  });
  const runId = input.runId ?? `check-${options.runId}`;
  const { cases, problems } = await loadCases(options.caseInputs, options.cwd);
  const runDir = path.resolve(options.cwd, options.out, runId);
  await makeDirs(runDir);
  const shutdown = hooks.shutdown ?? new AbortController().signal;
  // The tokenizer takes a second or two to load, on the first tick of the process: not inside an attempt's interrupt budget.
  loadTokenizer();
  const context: CheckContext = {
    runId,
    runDir,
    cwd: options.cwd,
    timeScale: options.timeScale,
    verifyFloorMs: options.verifyFloorMs,
    capabilities: await probeHost(),
    shutdown,
  };
  const results = await runPool(cases, options.concurrency ?? DEFAULTS.checkConcurrency, async (testCase) => {
    const result = await checkCase(testCase, context);
    hooks.onCase?.(result);
    return result;
  });
  const result: CheckCasesResult = {
    runDir,
    timeScale: options.timeScale,
    cases: results,
    problems,
    sound: problems.length === 0 && results.every((check) => check.sound) && !shutdown.aborted,
    wallMs: Math.round(performance.now() - started),
    interrupted: shutdown.aborted,
  };
  await writeFile(path.join(runDir, 'check-cases.json'), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

async function checkCase(testCase: Case, context: CheckContext): Promise<CaseSoundness> {
  const started = performance.now();
  await mkdir(path.join(context.runDir, testCase.id), { recursive: true });
  const found: Partial<Record<CheckName, CheckOutcome>> = {};
  const run: Record<CheckName, () => Promise<CheckOutcome>> = {
    repro: () =>
      checkRepro(testCase, {
        attemptId: attemptIdOf(context, testCase, 'repro'),
        capabilities: context.capabilities,
        timeScale: context.timeScale,
        intervalMs: DEFAULTS.intervalMs * context.timeScale,
        logFile: path.join(context.runDir, testCase.id, 'repro.log'),
        shutdown: context.shutdown,
      }),
    verifyUntouched: () =>
      testCase.kind === 'hang'
        ? checkVerify(testCase, context, 'untouched')
        : Promise.resolve({ ok: null, reason: 'control' }),
    verifyPatched: () => checkVerify(testCase, context, 'patched'),
    gates: () => checkGates(testCase, { ...context, attemptId: (check) => attemptIdOf(context, testCase, check) }),
    oracle: () => checkAgent(testCase, context, 'oracle'),
    nop: () => checkAgent(testCase, context, 'nop'),
  };
  const check = async (name: CheckName): Promise<void> => {
    found[name] = context.shutdown.aborted
      ? { ok: false, reason: 'interrupted' }
      : await run[name]().catch((error: unknown) => ({
          ok: false,
          reason: `harness error: ${(error as Error).message}`,
        }));
  };
  const inSequence = async (names: readonly CheckName[]): Promise<void> => {
    for (const name of names) await check(name);
  };
  // Timing matters to the repro and the oracle (ticks, onset, interrupt budget): one after the other. The rest mostly
  // wait out verify timeouts, so they run alongside, which halves the time of a case.
  await Promise.all([inSequence(TIMED_CHECKS), inSequence(CHECK_NAMES.filter((name) => !TIMED_CHECKS.includes(name)))]);
  // In the order they are shown, whatever order they finished in.
  const checks = Object.fromEntries(
    CHECK_NAMES.map((name) => [name, found[name] ?? { ok: false, reason: 'did not run' }]),
  ) as Record<CheckName, CheckOutcome>;
  return {
    caseId: testCase.id,
    file: path.relative(context.cwd, testCase.file),
    kind: testCase.kind,
    class: caseClass(testCase),
    terminal: testCase.terminal,
    sound: Object.values(checks).every((check) => check.ok !== false),
    checks,
    wallMs: Math.round(performance.now() - started),
  };
}

/** The hidden verify on the untouched workspace must fail (the hang is real); after solution.patch it must pass. */
async function checkVerify(
  testCase: Case,
  context: CheckContext,
  state: 'untouched' | 'patched',
): Promise<CheckOutcome> {
  const check = { attemptId: attemptIdOf(context, testCase, `verify-${state}`), name: `verify-${state}`, state };
  const outcome = await inFixtureSandbox(
    testCase,
    context,
    check,
    async ({ sandbox, trace, patched }): Promise<CheckOutcome> => {
      if (state === 'patched' && patched.length === 0)
        return {
          ok: false,
          reason: 'solution.patch is empty: write the fix as a unified diff against workspace/ (git diff --no-index)',
        };
      // As eval does: verify in a fresh sandbox with hidden/ laid over a copy of the workspace.
      const verifier = await sandbox.forVerify(...hiddenLayers(testCase.fixtureDir));
      const settings = { timeScale: context.timeScale, floorMs: context.verifyFloorMs, terminal: testCase.terminal };
      const passed = await runVerify(verifier, testCase.verify, trace, settings);
      const steps = trace.events.flatMap((event) => (event.type === 'verify' ? [event] : []));
      const failed = steps.find((step) => !step.passed);
      const count = `${steps.length} step${steps.length === 1 ? '' : 's'}`;
      if (state === 'untouched') {
        return failed
          ? { ok: true, reason: `fails: step ${failed.step + 1} ${failed.reason}` }
          : { ok: false, reason: `passes without the fix (${count})` };
      }
      return passed
        ? { ok: true, reason: `passes (${count})` }
        : { ok: false, reason: `step ${(failed?.step ?? 0) + 1} ${failed?.reason ?? 'failed'}` };
    },
  );
  return 'patchError' in outcome ? { ok: false, reason: outcome.patchError } : outcome;
}

/** A whole attempt through runAttempt, as `eval --agent oracle|nop` would run it. */
async function checkAgent(testCase: Case, context: CheckContext, agentName: 'oracle' | 'nop'): Promise<CheckOutcome> {
  const options = resolveOptions({
    agent: agentName,
    timeScale: context.timeScale,
    cwd: context.cwd,
    runId: context.runId,
  });
  const [variant] = options.variants;
  if (!variant) throw new Error('no variant for the agent');
  const agent = createAgentFactory(variant.agent, {
    cwd: options.cwd,
    timeScale: options.timeScale,
    agentEnv: options.agentEnv,
    agentAllowHosts: options.agentAllowHosts,
  });
  const scores: AttemptScores | null = await runAttempt(
    { testCase, variant, repeat: 1 },
    { options, runDir: context.runDir, capabilities: context.capabilities, agent, shutdown: context.shutdown },
  );
  if (scores === null) return { ok: false, reason: 'interrupted' };
  const missed = missedScores(scores);
  const why =
    scores.outcome === 'completed'
      ? missed.join(', ') || 'not solved'
      : `${scores.outcome}${missed.length > 0 ? `: ${missed.join(', ')}` : ''}`;
  if (agentTraits(agentName).fixesCause) {
    const latency =
      scores.scores.interrupt_latency === null
        ? ''
        : `, killed ${formatDuration(scores.scores.interrupt_latency)} after onset`;
    if (!scores.scores.solved) return { ok: false, reason: why };
    if (scores.scores.gates_passed === false)
      return { ok: false, reason: `solved, but a gate failed at its finish (${scores.scores.gate_rounds} rounds)` };
    return scores.scores.clean
      ? { ok: true, reason: `solved${latency}` }
      : { ok: false, reason: 'solved, but left processes running' };
  }
  return scores.scores.solved
    ? { ok: false, reason: 'nop solved it: the case tests nothing' }
    : { ok: true, reason: 'unsolved' };
}

function attemptIdOf(context: CheckContext, testCase: Case, check: string): string {
  return `${context.runId}.${testCase.id}.${check}`.replace(/[^A-Za-z0-9_.-]/g, '_');
}
