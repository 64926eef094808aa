import { z } from 'zod';
import { ClassSummarySchema, ConfusionSchema, RateSchema } from './schema.js';
import { AttemptScoresV2Schema } from './schema-v2.js';

/** summary.json as version 1 wrote it (before variants were compared): read only, to re-summarize its attempts. */

const GroupSummaryV1Schema = z.strictObject({
  agent: z.string(),
  variant: z.string(),
  attempts: z.number().int().nonnegative(),
  hangAttempts: z.number().int().nonnegative(),
  controlAttempts: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  solved: RateSchema,
  reproduced: RateSchema,
  interrupted: RateSchema,
  false_kill: RateSchema,
  completed: RateSchema,
  fixed: RateSchema,
  clean: RateSchema,
  within_budget: RateSchema,
  interruptLatencyMs: z.strictObject({
    count: z.number().int().nonnegative(),
    p50: z.number().nullable(),
    p90: z.number().nullable(),
  }),
  ticksPerAttempt: z.number().nullable(),
  tokensPerAttempt: z.number().nullable(),
  wallMsPerAttempt: z.number().nullable(),
});

export const RunSummaryV1Schema = z.strictObject({
  summaryVersion: z.literal(1),
  runId: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  hangbenchVersion: z.string().nullable(),
  interrupted: z.boolean().default(false),
  options: z.record(z.string(), z.unknown()),
  totals: z.strictObject({
    attempts: z.number().int().nonnegative(),
    solved: z.number().int().nonnegative(),
    errors: z.number().int().nonnegative(),
  }),
  groups: z.array(GroupSummaryV1Schema),
  classes: z.array(ClassSummarySchema),
  confusion: z.array(ConfusionSchema).optional(),
  attempts: z.array(AttemptScoresV2Schema),
});

export type RunSummaryV1 = z.infer<typeof RunSummaryV1Schema>;
