import { z } from 'zod';
import type { AttemptScores } from '../types/scores.js';
import { AttemptScoresSchema } from './schema.js';

/**
 * An attempt's scores as summary versions 1 and 2 wrote them: `fixed` was every verify passing, for controls too, and
 * `intact` did not exist. Read only, to upgrade.
 */
export const AttemptScoresV2Schema = AttemptScoresSchema.extend({
  scores: AttemptScoresSchema.shape.scores.omit({ fixed: true, intact: true }).extend({ fixed: z.boolean() }),
});

/**
 * summary.json as version 2 wrote it, read for what version 3 is derived from: the run's facts and its attempts.
 * Every other section is recomputed from the attempts, so it is not checked here.
 */
export const RunSummaryV2Schema = z.object({
  summaryVersion: z.literal(2),
  runId: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  hangbenchVersion: z.string().nullable(),
  interrupted: z.boolean().default(false),
  options: z.record(z.string(), z.unknown()),
  statistics: z.strictObject({ seed: z.number().int(), resamples: z.number().int().positive() }),
  attempts: z.array(AttemptScoresV2Schema),
});

type AttemptScoresV2 = z.infer<typeof AttemptScoresV2Schema>;

/** Old scores as version 3 scores them: a hang's verify is `fixed`, a control's is `intact`. */
export function upgradeAttemptScores(old: AttemptScoresV2): AttemptScores {
  const { fixed, ...rest } = old.scores;
  return {
    ...old,
    scores: { ...rest, fixed: old.kind === 'hang' ? fixed : null, intact: old.kind === 'control' ? fixed : null },
  };
}
