import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readTrace } from '../../scorers/index.js';
import { findTraces } from '../run-folder.js';
import { attemptKey } from '../../types/attempt-key.js';
import { RUN_FILES } from '../../types/run-files.js';

/** A trace that grew: which run and attempt, how many events it has, and whether the attempt is still going. */
export interface TraceChange {
  readonly run: string;
  readonly key: string;
  readonly events: number;
  readonly running: boolean;
  readonly lastEvent: string;
}

/** The runs under a results folder (folders with a meta.json), or the folder itself when it is one run (named "."). */
export async function listRuns(root: string): Promise<Array<{ readonly id: string; readonly dir: string }>> {
  const isRun = (dir: string) =>
    stat(path.join(dir, RUN_FILES.meta)).then(
      () => true,
      () => false,
    );
  if (await isRun(root)) return [{ id: '.', dir: root }];
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((entry) => entry.isDirectory());
  const runs = await Promise.all(
    folders.map(async (entry) => ({
      id: entry.name,
      dir: path.join(root, entry.name),
      run: await isRun(path.join(root, entry.name)),
    })),
  );
  return runs.filter((run) => run.run).map(({ id, dir }) => ({ id, dir }));
}

/** How long a finished run stays watched; a resume rewrites its meta.json, which makes it active again. */
const SETTLE_MS = 10_000;

/** A run that finished a while ago (summary.json, nothing rewritten since): its traces no longer grow. */
async function settled(runDir: string): Promise<boolean> {
  const mtime = (file: string) =>
    stat(path.join(runDir, file)).then(
      (info) => info.mtimeMs,
      () => null,
    );
  const [summary, meta] = await Promise.all([mtime(RUN_FILES.summary), mtime(RUN_FILES.meta)]);
  return summary !== null && Date.now() - Math.max(summary, meta ?? 0) > SETTLE_MS;
}

/**
 * Polls the traces under `root` (a trace is appended line by line, so its size tells it grew) and reports each one
 * that changed since the previous look. Polling rather than fs.watch: it behaves the same on every filesystem.
 */
export function watchTraces(root: string, onChange: (change: TraceChange) => void, intervalMs = 250): () => void {
  const sizes = new Map<string, number>();
  let first = true;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const scan = async (): Promise<void> => {
    for (const run of await listRuns(root)) {
      if (!first && (await settled(run.dir))) continue;
      for (const trace of await findTraces(run.dir).catch(() => [])) {
        const file = path.join(run.dir, trace);
        const size = await stat(file).then(
          (info) => info.size,
          () => -1,
        );
        if (size < 0 || sizes.get(file) === size) continue;
        sizes.set(file, size);
        if (first) continue;
        const events = await readTrace(file).catch(() => null);
        const start = events?.[0];
        if (!events || start?.type !== 'attempt.start') continue;
        onChange({
          run: run.id,
          key: attemptKey(start),
          events: events.length,
          running: !events.some((e) => e.type === 'attempt.end'),
          lastEvent: events.at(-1)?.type ?? '',
        });
      }
    }
    first = false;
  };
  const loop = (): void => {
    // each read already stands a trace being written or a run removed; a look that still fails is retried next interval
    void scan()
      .catch(() => undefined)
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, intervalMs);
      });
  };
  loop();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
