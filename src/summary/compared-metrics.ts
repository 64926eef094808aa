import type { AttemptScores, RateName } from '../types/scores.js';
import type { Over } from './schema-comparisons.js';

export type { RateName } from '../types/scores.js';

/** A yes/no score: a rate per variant (Wilson), compared between variants by McNemar's exact test and the paired difference. */
export interface ComparedRate {
  readonly kind: 'rate';
  readonly metric: RateName;
  readonly over: Over;
  readonly direction: 'higher' | 'lower';
  /** compared between the variants of one run (summary.json's `comparisons`) */
  readonly betweenVariants: boolean;
  /** compared between two runs by `hangbench compare` */
  readonly betweenRuns: boolean;
  /** null where the score does not apply (the attempt is not of the kind the rate is over) */
  readonly value: (attempt: AttemptScores) => boolean | null;
}

/** A measured quantity compared between variants: Wilcoxon signed-rank and the median paired difference. */
export interface ComparedShift {
  readonly kind: 'shift';
  readonly metric: 'interrupt_latency' | 'tokens';
  readonly over: Over;
  readonly direction: 'higher' | 'lower';
  readonly unit: 'ms' | 'tokens';
  readonly betweenVariants: true;
  readonly value: (attempt: AttemptScores) => number | null;
}

export type ComparedMetric = ComparedRate | ComparedShift;

const score =
  (name: RateName) =>
  (attempt: AttemptScores): boolean | null =>
    attempt.scores[name];

const rateOf = (
  metric: RateName,
  over: Over,
  direction: 'higher' | 'lower',
  betweenVariants: boolean,
  betweenRuns: boolean,
): ComparedRate => ({
  kind: 'rate',
  metric,
  over,
  direction,
  betweenVariants,
  betweenRuns,
  value: score(metric),
});

/**
 * Every metric hangbench reports, the one table of them: what it counts over, which way is better, and where it is
 * compared. In the order the reports show them, the trade-off a monitor is tuned for first. A new score joins with
 * one entry, and the group rates, the comparisons between variants and `hangbench compare` all follow.
 */
export const METRICS: readonly ComparedMetric[] = [
  rateOf('interrupted', 'hangs', 'higher', true, true),
  rateOf('false_kill', 'controls', 'lower', true, true),
  {
    kind: 'shift',
    metric: 'interrupt_latency',
    over: 'hangs',
    direction: 'lower',
    unit: 'ms',
    betweenVariants: true,
    value: (attempt) => attempt.scores.interrupt_latency,
  },
  rateOf('solved', 'all', 'higher', true, true),
  rateOf('fixed', 'hangs', 'higher', true, true),
  rateOf('diagnosed', 'hangs-with-culprit', 'higher', true, false),
  {
    kind: 'shift',
    metric: 'tokens',
    over: 'all',
    direction: 'lower',
    unit: 'tokens',
    betweenVariants: true,
    value: (attempt) => attempt.tokens,
  },
  rateOf('reproduced', 'hangs', 'higher', false, true),
  rateOf('completed', 'controls', 'higher', false, true),
  rateOf('intact', 'controls', 'higher', false, true),
  rateOf('clean', 'all', 'higher', false, true),
  rateOf('within_budget', 'all', 'higher', false, true),
];

/** The metrics compared between the variants of a run, one Holm family each. */
export const COMPARED_METRICS: readonly ComparedMetric[] = METRICS.filter((metric) => metric.betweenVariants);

/** Every rate, for the per-variant rates and `hangbench compare`. */
export const RATE_METRICS: readonly ComparedRate[] = METRICS.filter(
  (metric): metric is ComparedRate => metric.kind === 'rate',
);

/** Does `attempt` count towards a rate over `over`? (`hangs-with-culprit`: a hang whose case names a culprit.) */
export function countsOver(over: Over, attempt: AttemptScores): boolean {
  if (over === 'all') return true;
  if (over === 'controls') return attempt.kind === 'control';
  return attempt.kind === 'hang' && (over === 'hangs' || attempt.scores.diagnosed !== null);
}
