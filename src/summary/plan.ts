import { connorPairs, mcnemarPower, standardDeviation, wilcoxonPairs } from '../stats/index.js';
import type { AttemptScores } from '../types/scores.js';
import { ALPHA } from './comparisons.js';
import { COMPARED_METRICS, type ComparedMetric } from './compared-metrics.js';
import { groupBy } from './group-by.js';
import { pairUp } from './pair-up.js';
import type { RunSummary } from './schema.js';

/** The effect to detect: a difference of rates (0.10 = 10 points), or a shift in ms or tokens. */
export type Detect =
  | { readonly unit: 'pt'; readonly value: number }
  | { readonly unit: 'ms'; readonly value: number }
  | { readonly unit: 'tokens'; readonly value: number };

export interface PlanOptions {
  readonly detect: Detect;
  /** metric names; default every compared metric of the detect's unit */
  readonly metrics?: readonly string[];
  readonly power: number;
}

/** Beyond this many repeats per case a plan says "more than" instead of a number. */
export const MAX_PLANNED_REPEATS = 1000;

export interface PairPlan {
  readonly metric: string;
  readonly a: string;
  readonly b: string;
  /** the pilot's pairs with a value on both sides, and per repeat */
  readonly pilotPairs: number;
  readonly pairsPerRepeat: number;
  /** rates: the pilot's discordant share (aOnly + bOnly) / pairs; shifts: null */
  readonly discordance: number | null;
  /** shifts: the spread of the pilot's paired differences; rates: null */
  readonly sd: number | null;
  /** α over the metric's family (the pairs of variants), as the run's Holm correction needs at its first step */
  readonly alpha: number;
  /** repeats per case for the power asked; null: more than MAX_PLANNED_REPEATS, or nothing to plan from */
  readonly repeats: number | null;
}

export interface Plan {
  readonly detect: Detect;
  readonly power: number;
  readonly pilotRepeats: number;
  /** the pilot's own figures per repeat: attempts, wall time, tokens */
  readonly perRepeat: { readonly attempts: number; readonly wallMs: number | null; readonly tokens: number };
  readonly pairs: readonly PairPlan[];
  /** the run that decides every pair: the most repeats any pair needs, and what it costs */
  readonly run: {
    readonly repeats: number | null;
    readonly attempts: number | null;
    readonly wallMs: number | null;
    readonly tokens: number | null;
  };
}

const unitOf = (metric: ComparedMetric): Detect['unit'] => (metric.kind === 'rate' ? 'pt' : metric.unit);

/**
 * From a pilot run, the repeats per case each compared pair needs to detect `detect` with `power`: for a rate, the
 * exact power of McNemar's test with the pilot's discordance (at least the effect's own), scanned upward from
 * Connor's estimate; for latency or tokens, the signed-rank test's pairs from the spread of the paired differences.
 */
export function planRepeats(
  summary: Pick<RunSummary, 'attempts' | 'startedAt' | 'finishedAt'>,
  options: PlanOptions,
): Plan {
  const { detect, power } = options;
  const metrics = COMPARED_METRICS.filter(
    (metric) =>
      unitOf(metric) === detect.unit && (options.metrics === undefined || options.metrics.includes(metric.metric)),
  );
  const pilotRepeats = Math.max(1, ...summary.attempts.map((attempt) => attempt.repeat));
  const groups = groupBy(summary.attempts, (attempt) => attempt.variant);
  const couples = groups.flatMap((a, i) =>
    groups
      .slice(i + 1)
      .map((b) => ({ a: (a[0] as AttemptScores).variant, b: (b[0] as AttemptScores).variant, pairs: pairUp(a, b) })),
  );
  const pairs = metrics.flatMap((metric) => metricPairPlans(metric, couples, pilotRepeats, options));
  const wallMs = summary.finishedAt === null ? null : Date.parse(summary.finishedAt) - Date.parse(summary.startedAt);
  const perRepeat = {
    attempts: summary.attempts.length / pilotRepeats,
    wallMs: wallMs === null || !Number.isFinite(wallMs) ? null : wallMs / pilotRepeats,
    tokens: summary.attempts.reduce((sum, attempt) => sum + attempt.tokens, 0) / pilotRepeats,
  };
  const planned = pairs.map((pair) => pair.repeats);
  const repeats =
    planned.length === 0 || planned.some((value) => value === null) ? null : Math.max(...(planned as number[]));
  return {
    detect,
    power,
    pilotRepeats,
    perRepeat,
    pairs,
    run: {
      repeats,
      attempts: repeats === null ? null : Math.round(repeats * perRepeat.attempts),
      wallMs: repeats === null || perRepeat.wallMs === null ? null : repeats * perRepeat.wallMs,
      tokens: repeats === null ? null : repeats * perRepeat.tokens,
    },
  };
}

interface Couple {
  readonly a: string;
  readonly b: string;
  readonly pairs: readonly (readonly [AttemptScores, AttemptScores])[];
}

/** One metric's plan for every couple of variants with values on both sides, alpha split over those couples (Bonferroni). */
function metricPairPlans(
  metric: ComparedMetric,
  couples: readonly Couple[],
  pilotRepeats: number,
  { detect, power }: PlanOptions,
): PairPlan[] {
  const valued = couples
    .map((couple) => ({
      ...couple,
      values: couple.pairs.flatMap(([left, right]) => {
        const [x, y] = [metric.value(left), metric.value(right)];
        return x === null || y === null ? [] : [[x, y] as const];
      }),
    }))
    .filter((couple) => couple.values.length > 0);
  const alpha = ALPHA / Math.max(1, valued.length);
  return valued.map(({ a, b, values }): PairPlan => {
    const pairsPerRepeat = values.length / pilotRepeats;
    const common = { metric: metric.metric, a, b, pilotPairs: values.length, pairsPerRepeat };
    if (metric.kind === 'rate') {
      const discordance = values.filter(([x, y]) => x !== y).length / values.length;
      const repeats = rateRepeats(pairsPerRepeat, discordance, detect.value, alpha, power);
      return { ...common, discordance, sd: null, alpha, repeats };
    }
    const sd = standardDeviation(values.map(([x, y]) => Number(x) - Number(y)));
    const needed = sd > 0 ? Math.ceil(wilcoxonPairs(detect.value, sd, alpha, power) / pairsPerRepeat) : null;
    const repeats = needed !== null && needed <= MAX_PLANNED_REPEATS ? needed : null;
    return { ...common, discordance: null, sd, alpha, repeats };
  });
}

/** The fewest repeats whose pairs reach `power` on McNemar's exact test; the pairs discordant at least as often as the effect needs. */
function rateRepeats(
  pairsPerRepeat: number,
  pilotDiscordance: number,
  difference: number,
  alpha: number,
  power: number,
): number | null {
  const discordance = Math.min(1, Math.max(pilotDiscordance, difference));
  if (difference <= 0 || difference > 1) return null;
  // Connor's normal approximation is close: start well below it and step up to the exact answer
  const start = Math.max(1, Math.floor((0.5 * connorPairs(discordance, difference, alpha, power)) / pairsPerRepeat));
  for (let repeats = start; repeats <= MAX_PLANNED_REPEATS; repeats += 1) {
    if (mcnemarPower(Math.round(repeats * pairsPerRepeat), discordance, difference, alpha) >= power) return repeats;
  }
  return null;
}
