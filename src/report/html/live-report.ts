import path from 'node:path';
import { readTrace, scoreAttempt } from '../../scorers/index.js';
import {
  loadRunReport,
  readMetaSpine,
  readSummaryFile,
  readTracedAttempts,
  toReportAttempt,
  type ReportAttempt,
  type RunReport,
} from '../run-folder.js';
import { summarize } from '../../summary/index.js';
import { attemptKey } from '../../types/attempt-key.js';
import { RUN_FILES } from '../../types/run-files.js';

/**
 * A run's report as it stands: its summary.json when the run has finished, else one summarised from the attempts
 * whose traces have ended so far, with the running ones drawn up to their last event.
 */
export async function liveRunReport(runDir: string): Promise<RunReport> {
  const recorded = await readSummaryFile(runDir);
  if (recorded !== null) return loadRunReport(runDir, recorded);
  const [meta, traced] = await Promise.all([readMetaSpine(runDir), readTracedAttempts(runDir)]);
  const ended = traced.filter((attempt) => attempt.events.some((event) => event.type === 'attempt.end'));
  const summary = summarize(
    ended.map((attempt) => attempt.scores),
    { runId: meta?.runId ?? path.basename(runDir), startedAt: meta?.startedAt ?? '', options: meta?.options ?? {} },
  );
  return { runDir, summary, attempts: traced.map(toReportAttempt) };
}

/** One attempt of a run, by its `case/variant/repeat` key, read from its trace now; null when there is none. */
export async function liveAttempt(runDir: string, key: string): Promise<ReportAttempt | null> {
  const [caseId, variant, repeat, ...rest] = key.split('/');
  if (
    !caseId ||
    !variant ||
    !repeat ||
    rest.length > 0 ||
    [caseId, variant, repeat].some((part) => part === '..' || part === '.')
  )
    return null;
  const events = await readTrace(path.join(runDir, caseId, variant, repeat, RUN_FILES.trace)).catch(() => null);
  if (!events) return null;
  const scores = scoreAttempt(events);
  return attemptKey(scores) === key
    ? toReportAttempt({ dir: path.join(caseId, variant, repeat), events, scores })
    : null;
}
