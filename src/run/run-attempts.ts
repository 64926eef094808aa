import { setMaxListeners } from 'node:events';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { attemptDir, attemptStartEvent, runAttempt, type Attempt } from '../attempt/run-attempt.js';
import { DEFAULTS } from '../defaults.js';
import { scoreAttempt } from '../scorers/index.js';
import { resultsFaultOf, type ResultsFault } from '../trace/results-fault.js';
import type { EventInput, TraceEvent } from '../types/events.js';
import type { AttemptScores } from '../types/scores.js';
import { readTrace } from '../trace/read.js';
import { writeJsonAtomic } from '../trace/atomic-write.js';
import { RUN_FILES } from '../types/run-files.js';
import { attemptInfo } from './attempt-info.js';
import type { Reporter } from './reporter-hooks.js';
import type { LoadedRun, RunPlan } from './run-plan.js';
import { admissionLimits, runScheduled } from './scheduler.js';

/** The attempts phase's result: every finished attempt's scores, the first fault of the results folder, whether it was cut short. */
export interface AttemptsRun {
  readonly finished: readonly AttemptScores[];
  readonly fault: ResultsFault | null;
  readonly interrupted: boolean;
  /** one line per attempt the harness broke ("<attempt key>: <cause>"); their stacks are in errors.log. */
  readonly harnessErrors: readonly string[];
}

/**
 * Runs the pending attempts in plan order under the admission limits. The first fault of the results folder stops
 * every attempt as a shutdown would: none of them could be recorded. Told to stop, it waits a moment for its attempts
 * to be killed and cleaned up, then returns what finished without them: the CLI must be gone within
 * DEFAULTS.shutdown.exitWithinMs of the signal, and an exit kills whatever is left.
 */
export async function runAttempts(
  loaded: LoadedRun,
  plan: RunPlan,
  reporter: Required<Reporter> | undefined,
  shutdown: AbortSignal,
): Promise<AttemptsRun> {
  const { options, runDir, resumed, capabilities } = loaded;
  const finished = [...plan.finished];
  const harnessErrors: string[] = [];
  const limits = admissionLimits(options.concurrency);
  let fault: ResultsFault | null = null;
  const faulted = new AbortController();
  const onFault = (found: ResultsFault): void => {
    fault ??= found;
    faulted.abort(found);
  };
  const stopAttempts = AbortSignal.any([shutdown, faulted.signal]);
  // Every running attempt listens for the shutdown: more than Node's default 10 is expected, not a leak.
  setMaxListeners(limits.maxRunning + 10, shutdown);
  setMaxListeners(limits.maxRunning + 10, stopAttempts);
  const scheduled = runScheduled(plan.order, limits, async (attempt, _planned, up) => {
    if (stopAttempts.aborted) return;
    const info = attemptInfo(attempt);
    await reporter?.onAttemptStart(info);
    // A resumed attempt starts over: what an interrupted one left (trace, command logs) would mix with the new run.
    if (resumed) await rm(attemptDir(runDir, attempt), { recursive: true, force: true });
    const scores = await runAttempt(attempt, {
      options,
      runDir,
      capabilities,
      agent: loaded.factories.get(attempt.variant.name)!,
      shutdown: stopAttempts,
      onTick: reporter ? (_, tick) => void reporter.onTick(info, tick) : undefined,
      onAgentUp: up,
    }).catch((error: unknown) => {
      const refused = resultsFaultOf(error);
      if (refused === null) return harnessErrorScores(attempt, loaded, error, harnessErrors);
      onFault(refused);
      return null;
    });
    if (scores === null) return;
    if (scores.fault?.where === 'results') {
      onFault(scores.fault);
      return;
    }
    finished.push(scores);
    await reporter?.onAttemptEnd(info, scores);
  });
  // the race below rejects with it when it comes first; after a shutdown's grace nobody waits for it any more
  scheduled.catch(() => undefined);
  await Promise.race([scheduled, afterAbort(shutdown, DEFAULTS.shutdown.attemptsWaitMs)]);
  return { finished, fault, interrupted: stopAttempts.aborted, harnessErrors };
}

/** Resolves `ms` after the signal aborts (never, if it does not). */
function afterAbort(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const start = () => setTimeout(resolve, ms).unref();
    if (signal.aborted) start();
    else signal.addEventListener('abort', start, { once: true });
  });
}

/**
 * The attempt broke in the harness (its sandbox could not be set up, say): an ERROR, and the run goes on. The stack
 * goes to errors.log; the trace gets what an attempt that ended in an error has — its start (kept when the attempt had
 * written it), an `error` event with the cause in one line, and an `attempt.end` — and score.json the scores of that
 * trace, so reports, `hangbench report` and `hangbench score` read the attempt like any other.
 */
async function harnessErrorScores(
  attempt: Attempt,
  loaded: LoadedRun,
  error: unknown,
  lines: string[],
): Promise<AttemptScores> {
  const start = attemptStartEvent(attempt, loaded.options.timeScale, loaded.capabilities);
  // best effort: the same line reaches the user through `lines` whether or not errors.log takes it
  await appendFile(
    path.join(loaded.runDir, RUN_FILES.errors),
    `${start.attemptId}: ${(error as Error).stack ?? String(error)}\n`,
  ).catch(() => undefined);
  const dir = attemptDir(loaded.runDir, attempt);
  const written = await readTrace(path.join(dir, RUN_FILES.trace)).catch(() => null);
  const began = written !== null && written.length > 0;
  const events: TraceEvent[] = began ? [...written] : [{ ...start, seq: 0, t: 0 }];
  const at = events.at(-1)!.t;
  const stamp = (input: EventInput): TraceEvent => ({ ...input, seq: events.length, t: at }) as TraceEvent;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  events.push(stamp({ type: 'error', where: 'harness', message }));
  lines.push(`${start.attemptId}: ${message}`);
  // clean is a score an ERROR never passes: nothing looked for what the attempt left.
  events.push(stamp({ type: 'attempt.end', outcome: 'error', clean: false, wallMs: at, agentWallMs: at, tokens: 0 }));
  const scores = scoreAttempt(events);
  await mkdir(dir, { recursive: true })
    .then(() =>
      writeFile(path.join(dir, RUN_FILES.trace), events.map((event) => `${JSON.stringify(event)}\n`).join('')),
    )
    .then(() => writeJsonAtomic(path.join(dir, RUN_FILES.score), scores))
    // summary.json still counts it and resume runs it again, but the user is told its folder is incomplete
    .catch((writeError: unknown) => {
      lines.push(`${start.attemptId}: its trace and score.json could not be written: ${String(writeError)}`);
    });
  return scores;
}
