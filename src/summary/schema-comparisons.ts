import { z } from 'zod';
import { RateSchema } from './schema-rate.js';

/** What a rate counts over: every attempt, hang attempts, control attempts, or hangs whose case names a culprit. */
export const OverSchema = z.enum(['all', 'hangs', 'controls', 'hangs-with-culprit']);

/**
 * One pair of variants on a yes/no metric, paired on (caseId, repeat) where both have a value. `difference` is the
 * rate of `a` minus the rate of `b` over those pairs, with Newcombe's 95 % interval (method 10); p is McNemar's exact
 * test on the discordant pairs, pAdjusted Holm-corrected over the rows of the metric. `better` names the variant the
 * metric favours when pAdjusted < 0.05; null: no difference shown.
 */
export const RateEffectSchema = z.strictObject({
  a: z.string(),
  b: z.string(),
  pairs: z.number().int().nonnegative(),
  both: z.number().int().nonnegative(),
  neither: z.number().int().nonnegative(),
  aOnly: z.number().int().nonnegative(),
  bOnly: z.number().int().nonnegative(),
  /** null (with low, high, p, pAdjusted) when there are no pairs */
  difference: z.number().min(-1).max(1).nullable(),
  low: z.number().min(-1).max(1).nullable(),
  high: z.number().min(-1).max(1).nullable(),
  p: z.number().min(0).max(1).nullable(),
  pAdjusted: z.number().min(0).max(1).nullable(),
  better: z.string().nullable(),
  /**
   * summary version 4: the minimum detectable effect, the smallest |a − b| McNemar's exact test over these pairs would
   * find with 80 % power at 0.05 / (the family's rows), with the pairs discordant at least as often as here; null when
   * no difference could be (too few pairs) or there are no pairs.
   */
  mde: z.number().min(0).max(1).nullable(),
});

/**
 * One pair of variants on a measured metric (ms, tokens), paired where both have a value: the median of a − b with a
 * seeded percentile-bootstrap 95 % interval over the pairs (negative: `a` is lower), and the Wilcoxon signed-rank test
 * (V = W+, the rank sum of the pairs where a was higher; exact under 50 ranked pairs without ties or zeros, else the
 * normal approximation with tie and continuity correction). Fields other than a, b, pairs are null without pairs.
 */
export const ShiftEffectSchema = z.strictObject({
  a: z.string(),
  b: z.string(),
  pairs: z.number().int().nonnegative(),
  /** pairs with equal values, dropped before ranking */
  zeros: z.number().int().nonnegative(),
  method: z.enum(['exact', 'normal']).nullable(),
  statistic: z.number().nonnegative().nullable(),
  medianDifference: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  p: z.number().min(0).max(1).nullable(),
  pAdjusted: z.number().min(0).max(1).nullable(),
  better: z.string().nullable(),
  /**
   * summary version 4: the minimum detectable shift (ms or tokens) of the signed-rank test over these pairs at 80 %
   * power and 0.05 / (the family's rows), from the spread of the paired differences; null without spread or pairs.
   */
  mde: z.number().nonnegative().nullable(),
});

/** One metric family: the same metric over every two variants (group order, a before b), Holm-corrected together. */
export const MetricComparisonSchema = z.discriminatedUnion('test', [
  z.strictObject({
    metric: z.string(),
    over: OverSchema,
    /** which way is better */
    direction: z.enum(['higher', 'lower']),
    test: z.literal('mcnemar-exact'),
    rows: z.array(RateEffectSchema),
  }),
  z.strictObject({
    metric: z.string(),
    over: OverSchema,
    direction: z.enum(['higher', 'lower']),
    test: z.literal('wilcoxon-signed-rank'),
    unit: z.enum(['ms', 'tokens']),
    rows: z.array(ShiftEffectSchema),
  }),
]);

/** One variant on the sweep: its value on the axis, interrupt latency p50 with its bootstrap interval, and two rates. */
export const SweepPointSchema = z.strictObject({
  variant: z.string(),
  x: z.number(),
  latencyP50: z.number().nullable(),
  latencyLow: z.number().nullable(),
  latencyHigh: z.number().nullable(),
  /** over hangs */
  interrupted: RateSchema,
  /** over controls */
  false_kill: RateSchema,
  /** no other sweep variant has a latency p50 and a false-kill rate both at least as low, one of them lower */
  pareto: z.boolean(),
});

/**
 * Variants that differ along one numeric axis (the mode's period, or the baseline's hung ticks): one line per
 * remaining setting (usually the mode), its points in axis order. null when the variants form no such sweep.
 */
export const SweepSchema = z.strictObject({
  axis: z.enum(['interval', 'hung-ticks']),
  unit: z.enum(['ms', 'ticks']),
  lines: z.array(z.strictObject({ label: z.string(), points: z.array(SweepPointSchema) })),
});

export type Over = z.infer<typeof OverSchema>;
export type RateEffect = z.infer<typeof RateEffectSchema>;
export type ShiftEffect = z.infer<typeof ShiftEffectSchema>;
export type MetricComparison = z.infer<typeof MetricComparisonSchema>;
export type Sweep = z.infer<typeof SweepSchema>;
export type SweepPoint = z.infer<typeof SweepPointSchema>;
