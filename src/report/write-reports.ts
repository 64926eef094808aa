import { access } from 'node:fs/promises';
import path from 'node:path';
import { renderReportHtml } from './html/page.js';
import { renderJunit } from './junit/junit.js';
import { renderMarkdown } from './markdown/markdown.js';
import {
  byRunOrder,
  loadRunReport,
  readMetaSpine,
  readSummaryFile,
  readTracedAttempts,
  type RunReport,
} from './run-folder.js';
import type { ReportSummary } from './stats-view.js';
import { summarize } from '../summary/index.js';
import { attemptKey } from '../types/attempt-key.js';
import { HangbenchError } from '../types/errors.js';
import { writeFileAtomic, writeJsonAtomic } from '../trace/atomic-write.js';
import { RUN_FILES } from '../types/run-files.js';

export const REPORT_FILES = [RUN_FILES.reportMarkdown, RUN_FILES.junit, RUN_FILES.reportHtml] as const;

/** Writes report.md, junit.xml and report.html (each by rename) from a run's summary.json and its traces. */
export async function writeRunReports(runDir: string): Promise<RunReport> {
  const summary = await readSummaryFile(runDir);
  if (summary === null)
    throw new HangbenchError(
      'RUN_FOLDER',
      `${path.join(runDir, RUN_FILES.summary)} is missing; run \`hangbench report ${runDir}\` to derive it from the traces`,
    );
  const report = await loadRunReport(runDir, summary);
  const finished = new Set(summary.attempts.map(attemptKey));
  const junitAttempts = report.attempts.filter((attempt) => finished.has(attempt.timeline.key));
  await writeFileAtomic(path.join(runDir, RUN_FILES.reportMarkdown), renderMarkdown(summary));
  await writeFileAtomic(path.join(runDir, RUN_FILES.junit), renderJunit(summary.runId, junitAttempts));
  await writeFileAtomic(path.join(runDir, RUN_FILES.reportHtml), renderReportHtml(report));
  return report;
}

export interface Rederived {
  readonly summary: ReportSummary;
  /** attempts whose trace has no score.json (never finished: an interrupted run); left out, as the run leaves them. */
  readonly unfinished: readonly string[];
}

/**
 * Re-scores every finished attempt from its trace (an attempt is finished when the run wrote its score.json), rewrites
 * score.json and summary.json, and keeps the run's own facts (id, times, options) from the old summary or meta.json.
 */
export async function rederiveRun(runDir: string): Promise<Rederived> {
  const [old, meta, traced] = await Promise.all([
    readSummaryFile(runDir).catch(() => null),
    readMetaSpine(runDir),
    readTracedAttempts(runDir),
  ]);
  if (traced.length === 0)
    throw new HangbenchError(
      'RUN_FOLDER',
      `no trace.jsonl under ${runDir}; pass a run folder such as results/<run-id>`,
    );
  const finished: typeof traced = [];
  const unfinished: string[] = [];
  for (const attempt of traced) {
    const recorded = await access(path.join(runDir, attempt.dir, RUN_FILES.score)).then(
      () => true,
      () => false,
    );
    if (recorded) finished.push(attempt);
    else unfinished.push(attempt.dir);
  }
  await Promise.all(
    finished.map((attempt) => writeJsonAtomic(path.join(runDir, attempt.dir, RUN_FILES.score), attempt.scores)),
  );
  const caseOrder = old ? [...new Set(old.attempts.map((a) => a.caseId))] : (meta?.cases ?? []).map((c) => c.id);
  const variantOrder = [...new Set((old?.attempts ?? []).map((a) => a.variant))];
  const scores = finished.map((attempt) => attempt.scores).sort(byRunOrder(caseOrder, variantOrder));
  const { cwd: _cwd, ...options } = (old?.options ?? meta?.options ?? {}) as Record<string, unknown>;
  const summary = summarize(scores, {
    runId: old?.runId ?? meta?.runId ?? path.basename(runDir),
    startedAt: old?.startedAt ?? meta?.startedAt ?? '',
    ...(old?.finishedAt ? { finishedAt: old.finishedAt } : {}),
    ...(old?.hangbenchVersion ? { hangbenchVersion: old.hangbenchVersion } : {}),
    interrupted: old?.interrupted ?? unfinished.length > 0,
    options,
    ...(old?.sequential ? { sequential: old.sequential } : {}),
  });
  await writeJsonAtomic(path.join(runDir, RUN_FILES.summary), summary);
  return { summary, unfinished };
}
