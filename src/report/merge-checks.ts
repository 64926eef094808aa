import { readSummaryFile } from './run-folder.js';
import type { ReportSummary } from './stats-view.js';
import { HangbenchError } from '../types/errors.js';
import type { Shard } from '../run/index.js';
import { readRunMeta, type RunMeta } from '../run/index.js';

/** Options that may differ between the shards of one run; every other option must be the same. */
const PER_SHARD = new Set(['shard', 'runId', 'out', 'concurrency', 'cwd', 'resume']);

export interface ShardRun {
  readonly dir: string;
  readonly meta: RunMeta;
  readonly summary: ReportSummary;
  readonly shard: Shard;
}

const refuse = (message: string): HangbenchError => new HangbenchError('RUN_FOLDER', `merge: ${message}`);

export async function readShardRun(dir: string): Promise<ShardRun> {
  // meta.json validated like every reader of it does: merge compares options, cases and versions field by field.
  const meta = await readRunMeta(dir).catch((error: unknown) => {
    throw refuse(`${(error as Error).message}; pass the folders eval --shard wrote`);
  });
  const summary = await readSummaryFile(dir);
  if (summary === null)
    throw refuse(`${dir} has no summary.json: the shard has not finished (resume it with eval --resume ${dir})`);
  const shard: Shard | undefined = meta.options.shard;
  if (shard === undefined) throw refuse(`${dir} was not run with --shard i/n`);
  return { dir, meta, summary, shard };
}

const sharedOptions = (run: ShardRun): string =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(run.meta.options)
        .filter(([key]) => !PER_SHARD.has(key))
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  );

function differingOptions(a: ShardRun, b: ShardRun): string[] {
  const keys = new Set(
    [...Object.keys(a.meta.options), ...Object.keys(b.meta.options)].filter((key) => !PER_SHARD.has(key)),
  );
  const options = (run: ShardRun): Readonly<Record<string, unknown>> => run.meta.options;
  return [...keys].filter((key) => JSON.stringify(options(a)[key]) !== JSON.stringify(options(b)[key]));
}

/** Refuses shards that are not the slices of one run: options, cases, versions, or a shard missing or twice. */
export function checkShards(runs: readonly ShardRun[], traceVersions: ReadonlyMap<string, readonly number[]>): void {
  const [first] = runs;
  if (!first)
    throw refuse('give the shard run folders to merge, e.g. hangbench merge results/shard-* --out results/nightly');
  for (const run of runs.slice(1)) {
    if (sharedOptions(run) !== sharedOptions(first))
      throw refuse(`${run.dir} ran other options than ${first.dir}: ${differingOptions(first, run).join(', ')} differ`);
    const ids = (r: ShardRun) => JSON.stringify(r.meta.cases.map((c) => [c.id, c.kind ?? null]));
    if (ids(run) !== ids(first))
      throw refuse(
        `${run.dir} ran another case set than ${first.dir} (meta.json cases differ); shard one checkout of the cases`,
      );
    const hangbench = (r: ShardRun) => JSON.stringify(r.meta.versions?.hangbench ?? null);
    if (hangbench(run) !== hangbench(first))
      throw refuse(`${run.dir} was run by hangbench ${hangbench(run)}, ${first.dir} by ${hangbench(first)}`);
    if (run.summary.summaryVersion !== first.summary.summaryVersion)
      throw refuse(
        `${run.dir} has summaryVersion ${run.summary.summaryVersion}, ${first.dir} ${first.summary.summaryVersion}`,
      );
    if (run.shard.count !== first.shard.count)
      throw refuse(`${run.dir} is a shard of ${run.shard.count}, ${first.dir} of ${first.shard.count}`);
  }
  const versions = new Set(runs.flatMap((run) => traceVersions.get(run.dir) ?? []));
  if (versions.size > 1)
    throw refuse(`the shards' traces have different schema versions (${[...versions].join(', ')})`);
  const seen = new Map<number, string>();
  for (const run of runs) {
    const other = seen.get(run.shard.index);
    if (other !== undefined)
      throw refuse(`${run.dir} and ${other} are both shard ${run.shard.index}/${run.shard.count}`);
    seen.set(run.shard.index, run.dir);
  }
  const missing = Array.from({ length: first.shard.count }, (_, i) => i + 1).filter((index) => !seen.has(index));
  if (missing.length > 0)
    throw refuse(
      `shard ${missing.map((i) => `${i}/${first.shard.count}`).join(', ')} missing; a merged run must hold every slice`,
    );
  const interrupted = runs.filter((run) => run.summary.interrupted);
  if (interrupted.length > 0)
    throw refuse(
      `${interrupted.map((r) => r.dir).join(', ')} stopped before every attempt ran; finish it with eval --resume first`,
    );
}
