import path from 'node:path';
import { createMonitor } from '../monitor/index.js';
import type { Monitor } from '../monitor/index.js';
import { createSandbox } from '../sandbox/index.js';
import type { HostCapabilities } from '../sandbox/index.js';
import type { Case, Onset } from '../types/case.js';
import { formatDuration } from '../types/duration.js';
import { matchesCulprit, type Culprit } from '../types/culprit.js';
import type { Classification } from '../types/process.js';
import { DEFAULTS } from '../defaults.js';

/** A hang's repro must still be running this many ticks after its onset. */
export const HANG_TICKS = DEFAULTS.checkHangTicks;

export interface ReproContext {
  readonly attemptId: string;
  readonly capabilities: HostCapabilities;
  readonly timeScale: number;
  readonly intervalMs: number;
  /** where the repro's full output is copied. */
  readonly logFile: string;
  readonly shutdown: AbortSignal;
}

/** ok: null when not applicable; the reason is one short phrase for a table cell. */
export interface CheckOutcome {
  readonly ok: boolean | null;
  readonly reason: string;
}

type Watch =
  | {
      readonly kind: 'hangs';
      readonly classification: Classification;
      readonly atMs: number;
      readonly culpritSeen: boolean;
    }
  | {
      readonly kind: 'exited';
      readonly exitCode: number | null;
      readonly signal: string | null;
      readonly atMs: number;
      readonly onset: boolean;
    }
  | { readonly kind: 'deadline'; readonly onset: boolean };

/**
 * Runs the repro alone, as an agent would first see it, under the real sandbox and monitor: a hang must reach its
 * onset and still run HANG_TICKS ticks later; a control must exit 0 within its wall budget. Nothing may be left
 * running after the harness kills it.
 */
export async function checkRepro(testCase: Case, context: ReproContext): Promise<CheckOutcome> {
  const sandbox = await createSandbox({
    attemptId: context.attemptId,
    workspaceSource: path.join(testCase.fixtureDir, 'workspace'),
    timeScale: context.timeScale,
    capabilities: context.capabilities,
  });
  try {
    const proc = sandbox.spawn(testCase.repro, { commandId: 1, terminal: testCase.terminal });
    proc.stdin.on('error', () => undefined);
    const onset = testCase.kind === 'hang' ? scaledOnset(testCase.hang.onset, context.timeScale) : null;
    const monitor = createMonitor({
      process: proc,
      mode: { mode: 'interval', everyMs: context.intervalMs },
      onset,
      logFile: context.logFile,
    });
    const wallMs = testCase.budgets.wall * context.timeScale;
    const culprit = testCase.kind === 'hang' ? (testCase.hang.culprit ?? null) : null;
    const seen = await watch(monitor, testCase.kind === 'hang', wallMs, context.shutdown, culprit);
    if (!proc.done) await proc.kill('harness', 'check-cases: repro checked');
    await proc.exited;
    monitor.stop();
    const leaks = await sandbox.leakScan();
    if (!leaks.clean)
      return { ok: false, reason: `left running after the kill: ${leaks.leaked.map((p) => p.command).join(', ')}` };
    return judge(testCase, seen, wallMs);
  } finally {
    await sandbox.dispose();
  }
}

async function watch(
  monitor: Monitor,
  hang: boolean,
  wallMs: number,
  shutdown: AbortSignal,
  culprit: Culprit | null,
): Promise<Watch> {
  // A timer held here, not AbortSignal.timeout: inside AbortSignal.any, Node 20.20 can collect it and it never fires.
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), Math.max(1, wallMs));
  try {
    return await watchUntil(monitor, hang, AbortSignal.any([budget.signal, shutdown]), shutdown, culprit);
  } finally {
    clearTimeout(timer);
  }
}

async function watchUntil(
  monitor: Monitor,
  hang: boolean,
  deadline: AbortSignal,
  shutdown: AbortSignal,
  culprit: Culprit | null,
): Promise<Watch> {
  let ticksAfterOnset = 0;
  // hang.culprit must describe a process the repro really runs: one of the processes sampled after the onset.
  let culpritSeen = culprit === null;
  for (;;) {
    let event;
    try {
      event = await monitor.nextTickOrExit(deadline);
    } catch (error) {
      if (shutdown.aborted) throw error;
      return { kind: 'deadline', onset: monitor.onsetSeen };
    }
    if (event.type === 'exit') {
      const { exitCode, signal, durationMs } = event.exit;
      return { kind: 'exited', exitCode, signal, atMs: durationMs, onset: monitor.onsetSeen };
    }
    if (!hang || !monitor.onsetSeen) continue;
    ticksAfterOnset += 1;
    if (culprit && event.tick.snapshot.processes.some((process) => matchesCulprit(culprit, process)))
      culpritSeen = true;
    if (ticksAfterOnset >= HANG_TICKS)
      return { kind: 'hangs', classification: event.tick.classification, atMs: event.tick.elapsedMs, culpritSeen };
  }
}

function judge(testCase: Case, seen: Watch, wallMs: number): CheckOutcome {
  const budget = `the wall budget (${formatDuration(wallMs)})`;
  const ended = (exit: Extract<Watch, { kind: 'exited' }>): string =>
    `${exit.signal ?? `exit ${exit.exitCode}`} after ${formatDuration(exit.atMs)}`;
  if (testCase.kind === 'hang') {
    if (seen.kind === 'hangs' && !seen.culpritSeen) {
      return {
        ok: false,
        reason: `hangs, but no process after the onset matches hang.culprit ${JSON.stringify(testCase.hang.culprit)}`,
      };
    }
    if (seen.kind === 'hangs')
      return { ok: true, reason: `hangs (${seen.classification} at ${formatDuration(seen.atMs)})` };
    if (seen.kind === 'exited')
      return { ok: false, reason: `${ended(seen)}${seen.onset ? ', soon after its onset' : ', no onset'}` };
    return {
      ok: false,
      reason: seen.onset
        ? `onset seen, but fewer than ${HANG_TICKS} ticks within ${budget}`
        : `no onset within ${budget}`,
    };
  }
  if (seen.kind === 'exited')
    return seen.exitCode === 0
      ? { ok: true, reason: `exit 0 after ${formatDuration(seen.atMs)}` }
      : { ok: false, reason: ended(seen) };
  return { ok: false, reason: `still running after ${budget}` };
}

function scaledOnset(onset: Onset, scale: number): Onset {
  return 'after' in onset ? { after: onset.after * scale } : onset;
}
