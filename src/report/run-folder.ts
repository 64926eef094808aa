import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readTrace, scoreAttempt } from '../scorers/index.js';
import { HangbenchError } from '../types/errors.js';
import type { TraceEvent } from '../types/events.js';
import type { AttemptScores } from '../types/scores.js';
import { attemptKey } from '../types/attempt-key.js';
import { buildTimeline, type AttemptTimeline } from './html/timeline-model.js';
import type { ReportSummary } from './stats-view.js';
import { readRunSummary } from '../summary/index.js';
import { RUN_FILES } from '../types/run-files.js';

export interface ReportAttempt {
  readonly scores: AttemptScores;
  readonly timeline: AttemptTimeline;
  /** messages of the trace's error events: what an ERROR attempt's report says. */
  readonly errors: readonly string[];
}

export interface RunReport {
  readonly runDir: string;
  readonly summary: ReportSummary;
  readonly attempts: readonly ReportAttempt[];
}

const MetaSpineSchema = z.looseObject({
  runId: z.string().optional(),
  startedAt: z.string().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  cases: z.array(z.looseObject({ id: z.string() })).optional(),
});
export type MetaSpine = z.infer<typeof MetaSpineSchema>;

/** Every trace.jsonl under a run folder, as paths relative to it, sorted. */
export async function findTraces(runDir: string): Promise<string[]> {
  const files = await readdir(runDir, { recursive: true }).catch(() => {
    throw new HangbenchError(
      'RUN_FOLDER',
      `${runDir} is not a readable folder; pass a run folder such as results/<run-id>`,
    );
  });
  return files.filter((file) => path.basename(file) === RUN_FILES.trace).sort();
}

export async function readMetaSpine(runDir: string): Promise<MetaSpine | null> {
  const file = path.join(runDir, RUN_FILES.meta);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const parsed = MetaSpineSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new HangbenchError(
      'RUN_FOLDER',
      `${file}: not a hangbench meta.json (${parsed.error.issues[0]?.message ?? 'invalid'})`,
    );
  return parsed.data;
}

/** summary.json through the one reader (version 1 is upgraded, an unknown version refused); null when the run has none yet. */
export async function readSummaryFile(runDir: string): Promise<ReportSummary | null> {
  const file = path.join(runDir, RUN_FILES.summary);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  return exists ? readRunSummary(file) : null;
}

export interface TracedAttempt {
  readonly dir: string;
  readonly events: readonly TraceEvent[];
  readonly scores: AttemptScores;
}

/**
 * Every attempt's trace, read, with its scores: those the run already recorded (`scored`, e.g. summary.json's) are
 * taken as they are, and only the rest are scored from the trace (a trace still being written scores as an error
 * and draws as running). `hangbench score` passes none, to score every trace afresh.
 */
export async function readTracedAttempts(
  runDir: string,
  scored: readonly AttemptScores[] = [],
): Promise<TracedAttempt[]> {
  const traces = await findTraces(runDir);
  const recorded = new Map(scored.map((scores) => [attemptKey(scores), scores]));
  return Promise.all(
    traces.map(async (trace) => {
      const events = await readTrace(path.join(runDir, trace));
      const start = events.find((event) => event.type === 'attempt.start');
      const known = start === undefined ? undefined : recorded.get(attemptKey(start));
      return { dir: path.dirname(trace), events, scores: known ?? scoreAttempt(events) };
    }),
  );
}

/** Orders attempts as the run expands them: cases in the run's order, then variants in theirs (else by name), then repeat. */
export function byRunOrder(
  caseIds: readonly string[],
  variantNames: readonly string[] = [],
): (a: AttemptScores, b: AttemptScores) => number {
  const caseIndex = new Map(caseIds.map((id, index) => [id, index]));
  const variantIndex = new Map(variantNames.map((name, index) => [name, index]));
  return (a, b) => {
    const ca = caseIndex.get(a.caseId) ?? Number.MAX_SAFE_INTEGER;
    const cb = caseIndex.get(b.caseId) ?? Number.MAX_SAFE_INTEGER;
    if (ca !== cb) return ca - cb;
    if (a.caseId !== b.caseId) return a.caseId < b.caseId ? -1 : 1;
    const va = variantIndex.get(a.variant) ?? Number.MAX_SAFE_INTEGER;
    const vb = variantIndex.get(b.variant) ?? Number.MAX_SAFE_INTEGER;
    if (va !== vb) return va - vb;
    if (a.variant !== b.variant) return a.variant < b.variant ? -1 : 1;
    return a.repeat - b.repeat;
  };
}

export function toReportAttempt(traced: TracedAttempt): ReportAttempt {
  return {
    scores: traced.scores,
    timeline: buildTimeline(traced.events, attemptKey(traced.scores)),
    errors: traced.events.flatMap((event) => (event.type === 'error' ? [`${event.where}: ${event.message}`] : [])),
  };
}

/** Attempts in the summary's order; attempts with a trace the summary does not list yet (running) follow. */
function orderLike(summary: ReportSummary, attempts: readonly ReportAttempt[]): ReportAttempt[] {
  const order = new Map(summary.attempts.map((scores, index) => [attemptKey(scores), index]));
  return [...attempts].sort(
    (a, b) =>
      (order.get(a.timeline.key) ?? Number.MAX_SAFE_INTEGER) - (order.get(b.timeline.key) ?? Number.MAX_SAFE_INTEGER),
  );
}

/** A run's report from its summary and its traces; attempts the summary does not list yet are drawn as they stand. */
export async function loadRunReport(runDir: string, summary: ReportSummary): Promise<RunReport> {
  const traced = await readTracedAttempts(runDir, summary.attempts);
  return { runDir, summary, attempts: orderLike(summary, traced.map(toReportAttempt)) };
}
