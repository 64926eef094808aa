import { z } from 'zod';
import type { AttemptScores } from '../types/scores.js';
import { AttemptScoresSchema, RunSummarySchema } from './schema.js';

/**
 * An attempt's scores as summary versions 1 and 2 wrote them: `fixed` was every verify passing, for controls too, and
 * `intact` did not exist. Read only, to upgrade.
 */
export const AttemptScoresV2Schema = AttemptScoresSchema.extend({
  scores: AttemptScoresSchema.shape.scores.omit({ fixed: true, intact: true }).extend({ fixed: z.boolean() }),
});

/**
 * summary.json as version 2 wrote it, read for what version 3 is derived from: the run's facts (as version 3 has
 * them) and its attempts. Every other section is recomputed from the attempts, so it is not checked here.
 */
export const RunSummaryV2Schema = z.object({
  summaryVersion: z.literal(2),
  ...RunSummarySchema.pick({
    runId: true,
    startedAt: true,
    finishedAt: true,
    hangbenchVersion: true,
    interrupted: true,
    options: true,
    statistics: true,
  }).shape,
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

/**
 * summary.json as version 3 wrote it (no minimum detectable effects): its facts and attempts, which are version 4's;
 * every other section is recomputed from the attempts, so it is not checked here.
 */
export const RunSummaryV3Schema = z.object({
  summaryVersion: z.literal(3),
  ...RunSummarySchema.pick({
    runId: true,
    startedAt: true,
    finishedAt: true,
    hangbenchVersion: true,
    interrupted: true,
    options: true,
    statistics: true,
  }).shape,
  attempts: z.array(AttemptScoresSchema),
});
