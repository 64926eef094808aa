import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { HangbenchError } from '../types/errors.js';
import { summarize } from './summarize.js';
import { RunSummarySchema, SUMMARY_VERSION, type RunSummary } from './schema.js';
import { RunSummaryV1Schema } from './schema-v1.js';
import { RunSummaryV2Schema, RunSummaryV3Schema, upgradeAttemptScores } from './schema-v2.js';

const READABLE = [1, 2, 3, SUMMARY_VERSION] as const;

/**
 * A saved summary.json as the current version. A version 1, 2 or 3 file is re-summarized from the attempts it lists
 * (they hold every score the new sections need; in 1 and 2 a control's old `fixed` becomes its `intact`); an unknown
 * version is refused.
 */
export function parseRunSummary(value: unknown, source: string): RunSummary {
  const version =
    typeof value === 'object' && value !== null ? (value as { summaryVersion?: unknown }).summaryVersion : undefined;
  if (version === SUMMARY_VERSION) return check(RunSummarySchema, value, source);
  if (version === 1 || version === 2 || version === 3) {
    const old =
      version === 1
        ? check(RunSummaryV1Schema, value, source)
        : version === 2
          ? check(RunSummaryV2Schema, value, source)
          : check(RunSummaryV3Schema, value, source);
    const seed = 'statistics' in old ? old.statistics.seed : old.options.seed;
    const attempts = old.summaryVersion === 3 ? old.attempts : old.attempts.map(upgradeAttemptScores);
    return summarize(attempts, {
      runId: old.runId,
      startedAt: old.startedAt,
      ...(old.finishedAt === null ? {} : { finishedAt: old.finishedAt }),
      ...(old.hangbenchVersion === null ? {} : { hangbenchVersion: old.hangbenchVersion }),
      interrupted: old.interrupted,
      options: old.options,
      ...(typeof seed === 'number' && Number.isInteger(seed) ? { seed } : {}),
      ...('statistics' in old ? { resamples: old.statistics.resamples } : {}),
    });
  }
  throw new HangbenchError(
    'RUN_FOLDER',
    `${source}: summaryVersion ${JSON.stringify(version)} is not one this hangbench reads (${READABLE.join(', ')}); ` +
      'use the hangbench that wrote it, or re-score the run directory with `hangbench score`',
  );
}

export async function readRunSummary(file: string): Promise<RunSummary> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new HangbenchError(
      'RUN_FOLDER',
      `${file}: not readable as JSON (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  return parseRunSummary(value, file);
}

function check<T extends z.ZodType>(schema: T, value: unknown, source: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new HangbenchError(
      'RUN_FOLDER',
      `${source}: not a valid summary: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`,
    );
  return parsed.data;
}
