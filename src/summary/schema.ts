import { z } from 'zod';
import { OUTCOMES, type AttemptScores } from '../types/scores.js';

/**
 * summary.json is a saved result read back by `compare`, so it has a schema and a version.
 * 2: one group per variant name, pass@k, bootstrap latency intervals, tokens per tick, `statistics`, `comparisons`,
 * `caseMatrix`. Version 1 files are still read (summary/read.ts re-summarizes their attempts).
 */
export const SUMMARY_VERSION = 2;

/** `count` of `total`, its rate and 95 % Wilson interval; rate and interval are null when total is 0. */
export const RateSchema = z.strictObject({
  count: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  rate: z.number().min(0).max(1).nullable(),
  low: z.number().min(0).max(1).nullable(),
  high: z.number().min(0).max(1).nullable(),
});

export const AttemptScoresSchema = z.strictObject({
  caseId: z.string(),
  kind: z.enum(['hang', 'control']),
  class: z.string(),
  variant: z.string(),
  agent: z.string(),
  repeat: z.number().int(),
  outcome: z.enum(OUTCOMES),
  scores: z.strictObject({
    reproduced: z.boolean().nullable(),
    interrupted: z.boolean().nullable(),
    interrupt_latency: z.number().nullable(),
    fixed: z.boolean(),
    false_kill: z.boolean().nullable(),
    completed: z.boolean().nullable(),
    within_budget: z.boolean(),
    clean: z.boolean(),
    solved: z.boolean(),
    /** issue 12; absent from score.json written before gates and hints existed. */
    gates_passed: z.boolean().nullable().default(null),
    gate_rounds: z.number().int().nonnegative().nullable().default(null),
    hint_given: z.boolean().nullable().default(null),
    hint_to_action: z.number().nullable().default(null),
    /** issue 18; absent from score.json written before hang.culprit existed. */
    diagnosed: z.boolean().nullable().default(null),
  }),
  ticks: z.number().int().nonnegative(),
  tokens: z.number().nonnegative(),
  wallMs: z.number().nonnegative(),
  classificationAtEnd: z.string().nullable(),
});

export const PassAtKSchema = z.strictObject({
  k: z.number().int().positive(),
  /** cases the estimate averages over */
  cases: z.number().int().positive(),
  passAtK: z.number().min(0).max(1),
  passHatK: z.number().min(0).max(1),
});

/** One variant: every attempt whose `variant` is this name (attempts = case × variant × repeat). */
export const GroupSummarySchema = z.strictObject({
  agent: z.string(),
  variant: z.string(),
  attempts: z.number().int().nonnegative(),
  hangAttempts: z.number().int().nonnegative(),
  controlAttempts: z.number().int().nonnegative(),
  /** attempts whose outcome was `error`: the harness or endpoint broke. They count as unsolved in every rate. */
  errors: z.number().int().nonnegative(),
  /** over all attempts */
  solved: RateSchema,
  /** over hang attempts */
  reproduced: RateSchema,
  interrupted: RateSchema,
  /** over control attempts */
  false_kill: RateSchema,
  completed: RateSchema,
  /** over all attempts */
  fixed: RateSchema,
  clean: RateSchema,
  within_budget: RateSchema,
  /** over hang attempts of cases with hang.culprit (absent in summaries written before it existed) */
  diagnosed: RateSchema.optional(),
  /** pass@k (Chen et al. 2021 unbiased estimator) and pass^k (all k solved) per case, averaged over cases; k = 1 … the fewest repeats of a case. */
  passAtK: z.array(PassAtKSchema),
  /** nearest-rank percentiles of every agent kill after onset, in budget or not, with seeded percentile-bootstrap 95 % intervals (null without latencies). */
  interruptLatencyMs: z.strictObject({
    count: z.number().int().nonnegative(),
    p50: z.number().nullable(),
    p50Low: z.number().nullable(),
    p50High: z.number().nullable(),
    p90: z.number().nullable(),
    p90Low: z.number().nullable(),
    p90High: z.number().nullable(),
  }),
  ticksPerAttempt: z.number().nullable(),
  /** all tokens of the group over all its ticks; null when no attempt ticked. */
  tokensPerTick: z.number().nullable(),
  tokensPerAttempt: z.number().nullable(),
  wallMsPerAttempt: z.number().nullable(),
});

export const ClassSummarySchema = z.strictObject({
  class: z.string(),
  kind: z.enum(['hang', 'control']),
  agent: z.string(),
  variant: z.string(),
  attempts: z.number().int().nonnegative(),
  solved: RateSchema,
  /** over the hang attempts of the class; total 0 for a control class */
  interrupted: RateSchema,
  falseKills: z.number().int().nonnegative(),
  /** over the class's hang attempts with a culprit (absent in summaries written before it existed) */
  diagnosed: RateSchema.optional(),
});

/** One case class against the monitor's classification at the agent's kill or the repro's exit. */
export const ConfusionRowSchema = z.strictObject({
  class: z.string(),
  kind: z.enum(['hang', 'control']),
  attempts: z.number().int().nonnegative(),
  /** attempts per classification at the end (`none`: no tick came first); classifications never seen are left out. */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  /** attempts whose classification at the end is one an observer would call hung (not progressing, not exited). */
  looksHung: z.number().int().nonnegative(),
});

/** The monitor's confusion matrix for one agent/variant, and the false-kill rate on its controls. */
export const ConfusionSchema = z.strictObject({
  agent: z.string(),
  variant: z.string(),
  /** classifications that occur, in the monitor's order, then `none`. */
  columns: z.array(z.string()),
  rows: z.array(ConfusionRowSchema),
  falseKills: RateSchema,
});

/**
 * Paired tests between variants `a` and `b` (group order, a before b) over the attempts both have for the same
 * (caseId, repeat). p is two-sided; pAdjusted is Holm-corrected within its family (all `solved` tests of the run form
 * one family, all `latency` tests another), equal to p when the family has one test, null when p is.
 *
 *   { a, b, pairs,
 *     solved:  { test: 'mcnemar-exact', pairs, both, neither, aOnly, bOnly, p, pAdjusted },
 *     latency: { test: 'wilcoxon-signed-rank', method: 'exact' | 'normal', pairs, zeros, statistic,
 *                medianDifferenceMs, p, pAdjusted } | null }
 */
export const ComparisonSchema = z.strictObject({
  a: z.string(),
  b: z.string(),
  /** (caseId, repeat) pairs both variants ran */
  pairs: z.number().int().nonnegative(),
  solved: z.strictObject({
    test: z.literal('mcnemar-exact'),
    pairs: z.number().int().nonnegative(),
    both: z.number().int().nonnegative(),
    neither: z.number().int().nonnegative(),
    /** pairs only `a` solved; only `b` solved */
    aOnly: z.number().int().nonnegative(),
    bOnly: z.number().int().nonnegative(),
    /** null when there are no pairs */
    p: z.number().min(0).max(1).nullable(),
    pAdjusted: z.number().min(0).max(1).nullable(),
  }),
  /** over the pairs where both variants have an interrupt latency; null when there are none. */
  latency: z
    .strictObject({
      test: z.literal('wilcoxon-signed-rank'),
      /** exact null distribution (under 50 ranked pairs, no ties, no zero differences), else normal with tie and continuity correction */
      method: z.enum(['exact', 'normal']),
      pairs: z.number().int().positive(),
      /** pairs with equal latencies, dropped before ranking */
      zeros: z.number().int().nonnegative(),
      /** V = W+, the rank sum of the pairs where `a` was slower (R's wilcox.test `V`) */
      statistic: z.number().nonnegative(),
      /** nearest-rank median of a − b in ms: negative when `a` interrupts sooner */
      medianDifferenceMs: z.number(),
      p: z.number().min(0).max(1),
      pAdjusted: z.number().min(0).max(1),
    })
    .nullable(),
});

/** One case: per variant name, how many of its repeats solved. A variant that never ran the case has no cell. */
export const CaseMatrixRowSchema = z.strictObject({
  caseId: z.string(),
  class: z.string(),
  kind: z.enum(['hang', 'control']),
  cells: z.record(z.string(), z.strictObject({ solved: z.number().int().nonnegative(), total: z.number().int().positive() })),
});

/** Per agent/variant: how the attempts of gated and hinted cases went (issue 12). */
export const LoopSummarySchema = z.strictObject({
  agent: z.string(),
  variant: z.string(),
  /** over attempts of cases with gates: all gates passed at the accepted finish. */
  gates_passed: RateSchema,
  gateRoundsPerAttempt: z.number().nullable(),
  /** over attempts of cases with hints: a hint reached the agent. */
  hint_given: RateSchema,
  /** solved, over hinted-case attempts where a hint fired, and where none did (hints off, or the trigger never came). */
  solved_after_hint: RateSchema,
  solved_without_hint: RateSchema,
  hintToActionMs: z.strictObject({ count: z.number().int().nonnegative(), p50: z.number().nullable(), p90: z.number().nullable() }),
});

export const RunSummarySchema = z.strictObject({
  summaryVersion: z.literal(SUMMARY_VERSION),
  runId: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  hangbenchVersion: z.string().nullable(),
  /** true when the harness was stopped (Ctrl-C, SIGTERM) before every attempt ran: `eval --resume` runs the rest. */
  interrupted: z.boolean().default(false),
  options: z.record(z.string(), z.unknown()),
  totals: z.strictObject({
    attempts: z.number().int().nonnegative(),
    solved: z.number().int().nonnegative(),
    errors: z.number().int().nonnegative(),
  }),
  groups: z.array(GroupSummarySchema),
  classes: z.array(ClassSummarySchema),
  /** optional: summaries written before it existed have none. */
  confusion: z.array(ConfusionSchema).optional(),
  /** how the bootstrap intervals were drawn: the same seed gives the same intervals. */
  statistics: z.strictObject({ seed: z.number().int(), resamples: z.number().int().positive() }),
  /** every two variants, paired on (caseId, repeat): see ComparisonSchema. */
  comparisons: z.array(ComparisonSchema),
  /** hang cases first, then by caseId. */
  caseMatrix: z.array(CaseMatrixRowSchema),
  /** gates and hints (cases that have them), per variant; absent or [] when no case had either. */
  loop: z.array(LoopSummarySchema).optional(),
  attempts: z.array(AttemptScoresSchema),
});

export type Rate = z.infer<typeof RateSchema>;
export type GroupSummary = z.infer<typeof GroupSummarySchema>;
export type ClassSummary = z.infer<typeof ClassSummarySchema>;
export type RunSummary = z.infer<typeof RunSummarySchema>;
export type Confusion = z.infer<typeof ConfusionSchema>;
export type PassAtKPoint = z.infer<typeof PassAtKSchema>;
export type Comparison = z.infer<typeof ComparisonSchema>;
export type CaseMatrixRow = z.infer<typeof CaseMatrixRowSchema>;
export type ConfusionRow = z.infer<typeof ConfusionRowSchema>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Fails to compile when AttemptScoresSchema drifts from the shared AttemptScores interface. */
type _AttemptScoresSchemaMatches = Assert<Same<z.infer<typeof AttemptScoresSchema>, AttemptScores>>;
export type LoopSummary = z.infer<typeof LoopSummarySchema>;
