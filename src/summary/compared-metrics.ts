import type { AttemptScores } from '../types/scores.js';
import type { Over } from './schema-comparisons.js';

/** A yes/no score compared between variants: McNemar's exact test and the paired difference of the rates. */
export interface ComparedRate {
  readonly kind: 'rate';
  readonly metric: string;
  readonly over: Over;
  readonly direction: 'higher' | 'lower';
  /** null where the score does not apply (the attempt is not of the kind the rate is over) */
  readonly value: (attempt: AttemptScores) => boolean | null;
}

/** A measured quantity compared between variants: Wilcoxon signed-rank and the median paired difference. */
export interface ComparedShift {
  readonly kind: 'shift';
  readonly metric: string;
  readonly over: Over;
  readonly direction: 'higher' | 'lower';
  readonly unit: 'ms' | 'tokens';
  readonly value: (attempt: AttemptScores) => number | null;
}

export type ComparedMetric = ComparedRate | ComparedShift;

/**
 * Every metric the variants are compared on, one family each, in the order the reports show them: the trade-off a
 * monitor is tuned for first. A new score joins with one entry.
 */
export const COMPARED_METRICS: readonly ComparedMetric[] = [
  { kind: 'rate', metric: 'interrupted', over: 'hangs', direction: 'higher', value: (attempt) => attempt.scores.interrupted },
  { kind: 'rate', metric: 'false_kill', over: 'controls', direction: 'lower', value: (attempt) => attempt.scores.false_kill },
  { kind: 'shift', metric: 'interrupt_latency', over: 'hangs', direction: 'lower', unit: 'ms', value: (attempt) => attempt.scores.interrupt_latency },
  { kind: 'rate', metric: 'solved', over: 'all', direction: 'higher', value: (attempt) => attempt.scores.solved },
  { kind: 'rate', metric: 'fixed', over: 'hangs', direction: 'higher', value: (attempt) => attempt.scores.fixed },
  { kind: 'rate', metric: 'diagnosed', over: 'hangs-with-culprit', direction: 'higher', value: (attempt) => attempt.scores.diagnosed },
  { kind: 'shift', metric: 'tokens', over: 'all', direction: 'lower', unit: 'tokens', value: (attempt) => attempt.tokens },
];
