import { killLeftSurvivors } from '../scorers/index.js';
import path from 'node:path';
import { scoreAttempt } from '../scorers/index.js';
import { writeJsonAtomic } from '../trace/atomic-write.js';
import { resultsFaultOf } from '../trace/results-fault.js';
import type { TraceWriter } from '../trace/writer.js';
import type { AttemptScores } from '../types/scores.js';
import { RUN_FILES } from '../types/run-files.js';
import type { AgentPhaseResult } from './agent-phase.js';
import type { AttemptOptions, AttemptPlan } from './attempt-plan.js';
import type { AttemptSetup } from './attempt-setup.js';
import type { AttemptSession } from './session.js';
import type { SettledStop } from './stop-outcome.js';
import { hiddenLayers, runVerify } from './verify.js';

/** The stop phase: why it stopped in the trace, the agent's leftovers released, every command still running killed. */
export async function stopCommands(
  settled: SettledStop,
  ran: AgentPhaseResult,
  session: AttemptSession,
  trace: TraceWriter,
): Promise<void> {
  for (const event of settled.events) trace.write(event);
  await ran.release(settled.killer, settled.why);
  await session.shutdown(settled.killer, settled.why, settled.killSignal);
}

/** The verify phase, in a fresh sandbox over the agent's workspace; skipped when the harness stops or the results folder refuses writes. */
export async function verifyAttempt(
  plan: AttemptPlan,
  setup: AttemptSetup,
  settled: SettledStop,
  options: AttemptOptions,
): Promise<void> {
  const { sandbox, trace } = setup;
  if (!settled.verify || trace.fault !== null) return;
  await sandbox.settle();
  const { testCase } = plan.attempt;
  try {
    const verifier = await sandbox.forVerify(...hiddenLayers(testCase.fixtureDir));
    await runVerify(verifier, testCase.verify, trace, {
      timeScale: options.timeScale,
      floorMs: options.verifyFloorMs,
      terminal: testCase.terminal,
    });
  } catch (error) {
    trace.write({ type: 'error', where: 'verify', message: (error as Error).message });
  }
}

/** The last events: processes left behind (looked for, not assumed), the sandbox's own limits hit, and attempt.end. */
export async function endTrace(
  setup: AttemptSetup,
  settled: SettledStop,
  ran: AgentPhaseResult,
  cpuWaitMs: number,
): Promise<void> {
  const { sandbox, trace } = setup;
  const leaks = await sandbox.leakScan();
  if (!leaks.clean) trace.write({ type: 'leak', processes: leaks.leaked });
  for (const hit of sandbox.limitHits()) trace.write({ type: 'sandbox.limit', ...hit });
  trace.write({
    type: 'attempt.end',
    // a results folder that refused a write is the harness's fault, whatever the agent did
    outcome: trace.fault === null ? settled.outcome : 'error',
    clean: leaks.clean && !killLeftSurvivors(trace.events),
    wallMs: trace.now(),
    agentWallMs: Math.round(ran.agentWallMs),
    cpuWaitMs,
    tokens: ran.tokens,
    cpuMs: Math.round(sandbox.cpuTimes().ranMs),
  });
}

/**
 * The record phase: the scores from the trace, in score.json. Null when the harness shut down (the trace is kept, no
 * score, so resume runs it again); a fault of the results folder or of the sandbox is carried in the scores.
 */
export async function recordAttempt(
  plan: AttemptPlan,
  trace: TraceWriter,
  settled: SettledStop,
): Promise<AttemptScores | null> {
  if (settled.unscored && trace.fault === null) return null;
  const fault = trace.fault
    ? (resultsFaultOf(trace.fault) ?? { code: trace.fault.code ?? 'EIO', message: trace.fault.message })
    : null;
  const scores = scoreAttempt(trace.events);
  const file = path.join(plan.dir, RUN_FILES.score);
  if (fault) return writeFaulted({ ...scores, outcome: 'error', fault: { where: 'results', ...fault } }, file);
  if (settled.fault) return writeFaulted({ ...scores, outcome: 'error', fault: settled.fault }, file);
  try {
    await writeJsonAtomic(file, scores);
  } catch (error) {
    const refused = resultsFaultOf(error);
    if (refused === null) throw error;
    return { ...scores, outcome: 'error', fault: { where: 'results', ...refused } };
  }
  return scores;
}

/** The cause in score.json where the disk still takes it; resume runs a faulted attempt again either way. */
async function writeFaulted(scores: AttemptScores, file: string): Promise<AttemptScores> {
  // the disk already refused a results file: the fault is in the scores returned, which the run reports
  await writeJsonAtomic(file, scores).catch(() => undefined);
  return scores;
}
