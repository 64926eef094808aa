import { z } from 'zod';
import { GroupSummarySchema, RateSchema, RunSummarySchema } from './schema.js';
import { AttemptScoresV2Schema } from './schema-v2.js';

/** summary.json as version 1 wrote it (before variants were compared): read only, to re-summarize its attempts. */

/** A version 1 group: the counts and per-attempt means of version 3, plain rates, latency without intervals. */
const GroupSummaryV1Schema = GroupSummarySchema.pick({
  agent: true,
  variant: true,
  attempts: true,
  hangAttempts: true,
  controlAttempts: true,
  errors: true,
  ticksPerAttempt: true,
  tokensPerAttempt: true,
  wallMsPerAttempt: true,
}).extend({
  solved: RateSchema,
  reproduced: RateSchema,
  interrupted: RateSchema,
  false_kill: RateSchema,
  completed: RateSchema,
  fixed: RateSchema,
  clean: RateSchema,
  within_budget: RateSchema,
  interruptLatencyMs: GroupSummarySchema.shape.interruptLatencyMs.pick({ count: true, p50: true, p90: true }),
});

export const RunSummaryV1Schema = RunSummarySchema.pick({
  runId: true,
  startedAt: true,
  finishedAt: true,
  hangbenchVersion: true,
  interrupted: true,
  options: true,
  totals: true,
  classes: true,
  confusion: true,
}).extend({
  summaryVersion: z.literal(1),
  groups: z.array(GroupSummaryV1Schema),
  attempts: z.array(AttemptScoresV2Schema),
});

export type RunSummaryV1 = z.infer<typeof RunSummaryV1Schema>;
