import type { RunSummary } from '../summary/index.js';
import { formatCaseProblem, HangbenchError, type CaseProblem } from '../types/errors.js';
import type { Reporter, ReporterFailure } from './reporter-hooks.js';
import type { EvalOptionsInput } from './options.js';
import { runAttempts } from './run-attempts.js';
import { loadRun, planRun } from './run-plan.js';
import { recordRun, startReporting, writeStartMeta } from './run-record.js';

export interface RunResult {
  readonly runDir: string;
  readonly summary: RunSummary;
  readonly problems: readonly CaseProblem[];
  /** true when the harness was told to stop before every attempt ran; `resume` runs the rest. */
  readonly interrupted: boolean;
  /** one line per attempt of this session that broke in the harness, not the agent ("<attempt key>: <cause>"). */
  readonly harnessErrors: readonly string[];
}

export interface RunHooks {
  /** called in order on every hook; the run fans them out (once, here). */
  readonly reporters?: readonly Reporter[];
  /** a reporter's hook threw or rejected: it is in errors.log, and told here too (the CLI prints it). */
  readonly onReporterError?: (failure: ReporterFailure) => void;
  /** abort to shut the run down: every sandbox is killed, finished results are kept. */
  readonly shutdown?: AbortSignal;
  /** once summary.json and meta.json are written: the CLI renders report.md, junit.xml and report.html here. */
  readonly afterRun?: (runDir: string) => Promise<unknown>;
  /** a line to show before the first attempt (the results folder has less free space than the run may need). */
  readonly onWarning?: (line: string) => void;
}

/**
 * The whole evaluation: load cases, expand case × variant × repeat, run them with bounded concurrency, summarise.
 * With `resume`, the attempts of that run folder that have a score.json are kept and only the others run.
 * A results folder that refuses a write (full, read-only, removed) stops the run: every sandbox is killed, what
 * finished stays, and the run throws one line (HangbenchError RESULTS) saying what was kept and how to resume.
 */
export async function runEval(input: EvalOptionsInput, hooks: RunHooks = {}): Promise<RunResult> {
  const shutdown = hooks.shutdown ?? new AbortController().signal;
  const loaded = await loadRun(input, shutdown);
  // Nothing to run: one line, and no run folder (a resumed run has its own).
  if (loaded.cases.length === 0 && !loaded.resumed) {
    const why = loaded.problems.map(formatCaseProblem).join('; ');
    throw new HangbenchError('USAGE', `no case to run${why ? `: ${why}` : ' in the paths given'}`);
  }
  const plan = await planRun(loaded, shutdown, hooks.onWarning);
  const meta = await writeStartMeta(loaded, plan);
  const reporter = await startReporting(loaded, plan, hooks);
  const ran = await runAttempts(loaded, plan, reporter, shutdown);
  const summary = await recordRun(loaded, plan, meta, ran, hooks, shutdown);
  await reporter?.onRunEnd(summary);
  return {
    runDir: loaded.runDir,
    summary,
    problems: loaded.problems,
    interrupted: ran.interrupted,
    harnessErrors: ran.harnessErrors,
  };
}
