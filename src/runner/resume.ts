import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AttemptScoresSchema } from '../report/summary-schema.js';
import { HangbenchError } from '../types/errors.js';
import type { AttemptScores } from '../types/scores.js';
import { readRunMeta, type RunMeta } from './meta.js';
import type { EvalOptionsInput } from './options.js';

/** What may be given again with --resume; every other option comes from the run's meta.json. */
const MAY_CHANGE = new Set(['concurrency', 'cwd', 'resume']);

export interface ResumedRun {
  readonly runDir: string;
  readonly meta: RunMeta;
  /** the run's recorded options, with its folder as out/runId (it may have moved) and the new concurrency. */
  readonly input: EvalOptionsInput;
}

/** Reads the options of the run in `input.resume`; refuses options that would make it a different run. */
export async function resumeRun(input: EvalOptionsInput & { readonly resume: string }): Promise<ResumedRun> {
  const runDir = path.resolve(input.cwd ?? process.cwd(), input.resume);
  const given = Object.entries(input)
    .filter(([key, value]) => value !== undefined && !MAY_CHANGE.has(key) && !(Array.isArray(value) && value.length === 0))
    .map(([key]) => (key === 'caseInputs' ? 'case paths' : `--${key.replace(/Ms$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`));
  if (given.length > 0) {
    throw new HangbenchError('USAGE', `--resume runs with the options recorded in ${path.join(runDir, 'meta.json')}; leave out ${given.join(', ')} (only --concurrency may change)`);
  }
  const meta = await readRunMeta(runDir).catch((error: unknown) => {
    throw new HangbenchError('USAGE', `--resume ${input.resume}: ${(error as Error).message}`);
  });
  return {
    runDir,
    meta,
    input: { ...meta.options, out: path.dirname(runDir), runId: path.basename(runDir), concurrency: input.concurrency ?? meta.options.concurrency },
  };
}

/** The recorded scores of a finished attempt; null when it has none (never ran, interrupted, or unreadable): run it. */
export async function finishedScores(attemptDir: string): Promise<AttemptScores | null> {
  const text = await readFile(path.join(attemptDir, 'score.json'), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return AttemptScoresSchema.parse(JSON.parse(text));
  } catch {
    return null;
  }
}
