import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AttemptScoresSchema } from '../summary/index.js';
import { HangbenchError } from '../types/errors.js';
import type { AttemptScores } from '../types/scores.js';
import { readRunMeta, type RunMeta } from './meta.js';
import type { EvalOptionsInput } from './options.js';
import { RUN_FILES } from '../types/run-files.js';

/**
 * The options a resume may be given again (the CLI's eval flag table says the same of its flags, and a test holds
 * the two equal): concurrency may change, repeat may grow. Every other option comes from the run's meta.json.
 */
export const RESUMABLE_OPTIONS = { concurrency: 'may change', repeat: 'may grow' } as const satisfies Partial<
  Record<keyof EvalOptionsInput, 'may change' | 'may grow'>
>;
/** Where the run is and what resumes it: not options of the run. */
const RESUME_ITSELF = new Set(['cwd', 'resume']);

export interface ResumedRun {
  readonly runDir: string;
  readonly meta: RunMeta;
  /** the run's recorded options, with its folder as out/runId (it may have moved) and the new concurrency. */
  readonly input: EvalOptionsInput;
}

/** Reads the options of the run in `input.resume`; refuses options that would make it a different run. */
export async function resumeRun(input: EvalOptionsInput & { readonly resume: string }): Promise<ResumedRun> {
  const runDir = path.resolve(input.cwd ?? process.cwd(), input.resume);
  // the CLI refuses its recorded flags by name before this (cli/flags/resume-check.ts); here a library caller's options
  const given = Object.entries(input)
    .filter(([key, value]) => value !== undefined && !RESUME_ITSELF.has(key) && !(key in RESUMABLE_OPTIONS))
    .filter(([, value]) => !(Array.isArray(value) && value.length === 0))
    .map(([key]) => key);
  if (given.length > 0) {
    const allowed = Object.entries(RESUMABLE_OPTIONS).map(([key, rule]) => `${key} ${rule}`);
    throw new HangbenchError(
      'USAGE',
      `resume runs with the options recorded in ${path.join(runDir, RUN_FILES.meta)}; leave out ${given.join(', ')} (only ${allowed.join(', ')})`,
    );
  }
  const meta = await readRunMeta(runDir).catch((error: unknown) => {
    throw new HangbenchError('RUN_FOLDER', `--resume ${input.resume}: ${(error as Error).message}`);
  });
  // more repeats may be added to a run (eval --repeat-until decided does, a round at a time), never fewer
  if (input.repeat !== undefined && input.repeat < meta.options.repeat) {
    throw new HangbenchError(
      'USAGE',
      `--resume ${input.resume}: the run has ${meta.options.repeat} repeats; --repeat may add more, not remove any`,
    );
  }
  return {
    runDir,
    meta,
    input: {
      ...meta.options,
      out: path.dirname(runDir),
      runId: path.basename(runDir),
      concurrency: input.concurrency ?? meta.options.concurrency,
      repeat: input.repeat ?? meta.options.repeat,
    },
  };
}

/**
 * The recorded scores of a finished attempt; null when it has none (never ran, interrupted, unreadable, or stopped by
 * a fault of the results folder): run it.
 */
export async function finishedScores(attemptDir: string): Promise<AttemptScores | null> {
  const text = await readFile(path.join(attemptDir, RUN_FILES.score), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const scores = AttemptScoresSchema.parse(JSON.parse(text));
    return scores.fault === undefined ? scores : null;
  } catch {
    return null;
  }
}

/**
 * A resumed run must run what it started with: the same cases (the case paths are read again and may have gained or
 * lost files) under the same hangbench, else its old and new attempts would be two different runs in one summary.
 */
export function checkResumable(
  run: ResumedRun,
  cases: readonly { readonly id: string; readonly kind: string }[],
  version: string,
): void {
  const before = new Map(run.meta.cases.map((c) => [c.id, c.kind]));
  const now = new Map(cases.map((c) => [c.id, c.kind]));
  const added = [...now.keys()].filter((id) => !before.has(id));
  const removed = [...before.keys()].filter((id) => !now.has(id));
  const changed = [...now.keys()].filter((id) => before.has(id) && before.get(id) !== now.get(id));
  if (added.length + removed.length + changed.length > 0) {
    const parts = [
      added.length > 0 ? `added ${added.join(', ')}` : '',
      removed.length > 0 ? `removed ${removed.join(', ')}` : '',
      changed.length > 0 ? `kind changed: ${changed.join(', ')}` : '',
    ].filter(Boolean);
    throw new HangbenchError(
      'RUN_FOLDER',
      `--resume ${run.runDir}: the case set changed since the run started (${parts.join('; ')}); start a new run, or restore the cases`,
    );
  }
  const recorded = run.meta.versions.hangbench;
  if (recorded !== version)
    throw new HangbenchError(
      'RUN_FOLDER',
      `--resume ${run.runDir}: the run was started by hangbench ${recorded}, this is ${version}; finish it with that version or start a new run`,
    );
}
