import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { FIXED_OVERHEAD_MS, historyKey, type DurationHistory } from './expected-duration.js';
import { RUN_FILES } from '../types/run-files.js';

/** Only what ordering needs of a saved summary.json; anything else in it may change without breaking this. */
const SavedSummarySchema = z.object({
  options: z.object({ timeScale: z.number().positive() }),
  attempts: z.array(
    z.object({ caseId: z.string(), variant: z.string(), outcome: z.string(), wallMs: z.number().nonnegative() }),
  ),
});

/** Enough runs to learn every case's duration without reading a years-old results folder on every start. */
const MAX_RUNS = 20;
const MAX_SAMPLES = 5;

/**
 * Durations of attempts in the newest earlier runs under `resultsDir` (each run's summary.json), for ordering.
 * A missing folder, an unreadable or foreign summary is skipped: history only refines an estimate.
 */
export async function loadDurationHistory(resultsDir: string, excludeRun?: string): Promise<DurationHistory> {
  const runs = await newestRuns(resultsDir, excludeRun);
  const history = new Map<string, number[]>();
  for (const run of runs) {
    const parsed = SavedSummarySchema.safeParse(await readJson(path.join(run, RUN_FILES.summary)));
    if (!parsed.success) continue;
    const scale = parsed.data.options.timeScale;
    for (const attempt of parsed.data.attempts) {
      if (attempt.outcome === 'error') continue;
      const key = historyKey(attempt.caseId, attempt.variant);
      const samples = history.get(key) ?? [];
      if (samples.length < MAX_SAMPLES) samples.push(Math.max(0, attempt.wallMs - FIXED_OVERHEAD_MS) / scale);
      history.set(key, samples);
    }
  }
  return history;
}

async function newestRuns(resultsDir: string, excludeRun?: string): Promise<string[]> {
  const names = await readdir(resultsDir).catch(() => [] as string[]);
  const runs = await Promise.all(
    names.map(async (name) => {
      const dir = path.join(resultsDir, name);
      const info = await stat(path.join(dir, RUN_FILES.summary)).catch(() => null);
      return info && dir !== excludeRun ? { dir, mtimeMs: info.mtimeMs } : null;
    }),
  );
  return runs
    .filter((run) => run !== null)
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .slice(0, MAX_RUNS)
    .map((run) => run.dir);
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}
