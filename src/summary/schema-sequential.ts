import { z } from 'zod';

/** One pre-registered comparison of a `--repeat-until decided` run: a metric over one pair of variants. */
export const SequentialComparisonSchema = z.strictObject({
  metric: z.string(),
  a: z.string(),
  b: z.string(),
  /** the round (repeats run) at which its always-valid e-value first reached family/α; null: undecided at the last round */
  decidedAtRound: z.number().int().positive().nullable(),
  /** the variant the decision favours (null while undecided) */
  better: z.string().nullable(),
  /** signs counted at the last round looked at: for a rate its discordant pairs, for a measured metric its non-zero differences */
  signs: z.number().int().nonnegative(),
  /** of those, how many favoured a */
  forA: z.number().int().nonnegative(),
  eValue: z.number().nonnegative(),
});

/** One round: the repeat it added, what it cost, and the comparisons still open after it. */
export const SequentialRoundSchema = z.strictObject({
  round: z.number().int().positive(),
  attempts: z.number().int().nonnegative(),
  wallMs: z.number().nonnegative(),
  tokens: z.number().nonnegative(),
  undecided: z.number().int().nonnegative(),
});

/**
 * `eval --repeat-until decided`: repeats were added a round at a time until every comparison was decided or the
 * maximum was reached. Each comparison is an always-valid sign test (a Beta(1, 1) mixture e-value, Robbins 1970),
 * rejected when its e-value reaches (pairs in its metric) / α: stopping at any round keeps the error rate at α.
 */
export const SequentialSchema = z.strictObject({
  method: z.literal('sign-mixture-e-value'),
  alpha: z.number().min(0).max(1),
  maxRepeat: z.number().int().positive(),
  metrics: z.array(z.string()),
  /** why the rounds stopped */
  stopped: z.enum(['decided', 'max-repeat', 'interrupted']),
  rounds: z.array(SequentialRoundSchema),
  comparisons: z.array(SequentialComparisonSchema),
});

export type Sequential = z.infer<typeof SequentialSchema>;
export type SequentialComparison = z.infer<typeof SequentialComparisonSchema>;
export type SequentialRound = z.infer<typeof SequentialRoundSchema>;
