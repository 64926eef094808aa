import { cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { byRunOrder, findTraces } from './run-folder.js';
import type { ReportSummary } from './stats-view.js';
import { summarize } from '../summary/index.js';
import { HangbenchError } from '../types/errors.js';
import { writeJsonAtomic } from '../trace/atomic-write.js';
import { checkShards, readShardRun, type ShardRun } from './merge-checks.js';
import { writeRunReports } from './write-reports.js';
import { makeDirs } from '../trace/make-dirs.js';
import { RUN_FILES } from '../types/run-files.js';

export interface MergeResult {
  readonly outDir: string;
  readonly summary: ReportSummary;
  readonly shards: readonly ShardRun[];
}

async function traceSchemaVersions(run: ShardRun): Promise<number[]> {
  const versions = new Set<number>();
  for (const trace of await findTraces(run.dir)) {
    const text = await readFile(path.join(run.dir, trace), 'utf8');
    const first = JSON.parse(text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'))) as {
      schemaVersion?: number;
    };
    versions.add(first.schemaVersion ?? -1);
  }
  return [...versions];
}

/** Variant names in the run's own order when the options list them (variants), else none. */
function variantOrder(options: Readonly<Record<string, unknown>>): string[] {
  const variants = options.variants;
  return Array.isArray(variants)
    ? variants.flatMap((v) =>
        typeof (v as { name?: unknown }).name === 'string' ? [(v as { name: string }).name] : [],
      )
    : [];
}

/**
 * Joins the run folders of `eval --shard i/n` into one run folder: the attempts copied, a meta.json and summary.json
 * as an unsharded run would have written them (its attempts in the same order), and the reports.
 */
export async function mergeRuns(dirs: readonly string[], outDir: string): Promise<MergeResult> {
  const runs = await Promise.all(dirs.map((dir) => readShardRun(dir)));
  const traceVersions = new Map(
    await Promise.all(runs.map(async (run) => [run.dir, await traceSchemaVersions(run)] as const)),
  );
  checkShards(runs, traceVersions);
  const existing = await readdir(outDir).catch(() => []);
  if (existing.length > 0)
    throw new HangbenchError('RUN_FOLDER', `merge: ${outDir} is not empty; merge into a new folder`);
  await makeDirs(outDir);

  const copied = new Map<string, string>();
  for (const run of runs) {
    for (const trace of await findTraces(run.dir)) {
      const attempt = path.dirname(trace);
      const other = copied.get(attempt);
      if (other !== undefined)
        throw new HangbenchError('RUN_FOLDER', `merge: ${attempt} is in both ${other} and ${run.dir}`);
      copied.set(attempt, run.dir);
      await cp(path.join(run.dir, attempt), path.join(outDir, attempt), { recursive: true });
    }
  }
  const [first] = runs as [ShardRun];
  const { shard: _shard, runId: _runId, out: _out, cwd: _cwd, ...options } = first.meta.options;
  const runId = path.basename(outDir);
  const startedAt = runs.map((run) => run.summary.startedAt).sort()[0] ?? first.meta.startedAt;
  const finishedAt = runs
    .map((run) => run.summary.finishedAt ?? '')
    .sort()
    .at(-1);
  const attempts = runs
    .flatMap((run) => run.summary.attempts)
    .sort(
      byRunOrder(
        first.meta.cases.map((c) => c.id),
        variantOrder(options),
      ),
    );
  const summary = summarize(attempts, {
    runId,
    startedAt,
    ...(finishedAt ? { finishedAt } : {}),
    ...(first.summary.hangbenchVersion ? { hangbenchVersion: first.summary.hangbenchVersion } : {}),
    interrupted: false,
    options,
  });
  const shards = [...runs]
    .sort((a, b) => a.shard.index - b.shard.index)
    .map((run) => ({
      index: run.shard.index,
      count: run.shard.count,
      runId: run.meta.runId,
      startedAt: run.meta.startedAt,
      attempts: run.summary.attempts.length,
    }));
  await writeJsonAtomic(path.join(outDir, RUN_FILES.meta), {
    ...first.meta,
    runId,
    startedAt,
    options: { ...options, runId },
    interrupted: false,
    mergedFrom: shards,
  });
  await writeJsonAtomic(path.join(outDir, RUN_FILES.summary), summary);
  await writeRunReports(outDir);
  return { outDir, summary, shards: runs };
}
