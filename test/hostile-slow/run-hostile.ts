import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runEval, type RunResult } from '../../src/run/run-eval.js';
import { readTrace } from '../../src/scorers/index.js';
import type { EventOf, TraceEvent, TraceEventType } from '../../src/types/events.js';
import { attemptMarkerProcesses } from '../support/proc-scan.js';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
export const HOSTILE_CASES = path.join(PROJECT_ROOT, 'test/fixtures/hostile/cases');
export const TIME_SCALE = 0.1;
/** 2 s interval → a tick every 200 ms at the time scale. */
export const INTERVAL_MS = 2_000;
/**
 * How late a budget kill may be decided and still count as "within budget": timers, a tick's /proc sample of a
 * 512-process tree, GC. Generous for a loaded 2-core CI machine; a frozen harness (seconds) is far beyond it.
 */
export const DECISION_SLACK_MS = 1_000;
/** The harness's resident memory may grow this much over its warmed-up size while one hostile program runs. */
export const RSS_GROWTH_BOUND_BYTES = 200 * 1024 ** 2;

export interface AttemptView {
  readonly caseId: string;
  readonly dir: string;
  readonly events: TraceEvent[];
  of<K extends TraceEventType>(type: K): EventOf<K>[];
  log(commandId?: number): Promise<string>;
}

export interface HostileRun {
  readonly result: RunResult;
  readonly attempts: ReadonlyMap<string, AttemptView>;
  /** peak rss of this process (the harness) while the run went on, sampled every 50 ms, and its rss just before. */
  readonly rss: { readonly before: number; readonly peak: number };
  /** processes still carrying the run's marker once runEval returned (must be none). */
  readonly leftovers: ReadonlyArray<{ pid: number; command: string }>;
}

let runs = 0;

export interface RunOptions {
  readonly concurrency?: number;
  readonly repeat?: number;
}

/** Runs cases (ids under test/fixtures/hostile/cases) with the baseline agent set never to kill, so budgets decide. */
export function runHostile(caseIds: readonly string[], options: RunOptions = {}): Promise<HostileRun> {
  return runCases(
    caseIds.map((id) => path.join(HOSTILE_CASES, `${id}.yaml`)),
    { concurrency: caseIds.length, ...options },
  );
}

/** Runs case files with the baseline agent (never kills) in this process, sampling its memory every 50 ms. */
export async function runCases(caseInputs: readonly string[], options: RunOptions = {}): Promise<HostileRun> {
  const out = await mkdtemp(path.join(tmpdir(), 'hangbench-hostile-'));
  const runId = `hostile${process.pid}r${++runs}`;
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  let result: RunResult;
  try {
    result = await runEval({
      caseInputs,
      agent: 'baseline',
      hungTicks: 1_000_000,
      timeScale: TIME_SCALE,
      intervalMs: INTERVAL_MS,
      concurrency: options.concurrency ?? 1,
      repeat: options.repeat ?? 1,
      out,
      runId,
      cwd: PROJECT_ROOT,
    });
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  const leftovers = attemptMarkerProcesses(`${runId}.`);
  const attempts = new Map<string, AttemptView>();
  for (const attempt of result.summary.attempts) {
    const dir = path.join(result.runDir, attempt.caseId, attempt.variant, String(attempt.repeat));
    const events = await readTrace(path.join(dir, 'trace.jsonl'));
    attempts.set(attempt.repeat === 1 ? attempt.caseId : `${attempt.caseId}#${attempt.repeat}`, {
      caseId: attempt.caseId,
      dir,
      events,
      of: (type) => events.filter((event) => event.type === type) as never,
      log: (commandId = 1) => readFile(path.join(dir, `command-${commandId}.log`), 'utf8'),
    });
  }
  return { result, attempts, rss: { before, peak }, leftovers };
}

export function the<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`expected ${what}`);
  return value;
}
