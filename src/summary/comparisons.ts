import { DEFAULTS } from '../defaults.js';
import {
  hashString,
  holm,
  mcnemarExact,
  mcnemarMde,
  medianDifference,
  newcombePaired,
  pairedCounts,
  standardDeviation,
  wilcoxonMde,
  wilcoxonSignedRank,
  type BootstrapOptions,
} from '../stats/index.js';
import type { AttemptScores } from '../types/scores.js';
import { COMPARED_METRICS, type ComparedRate, type ComparedShift } from './compared-metrics.js';
import type { MetricComparison, RateEffect, ShiftEffect } from './schema-comparisons.js';
import { pairUp, type Pair } from './pair-up.js';

/** The level a difference is called at, after Holm. */
export const ALPHA = DEFAULTS.alpha;

/** The power a minimum detectable effect is quoted at. */
export const POWER = DEFAULTS.power;

/**
 * Every metric of COMPARED_METRICS over every two variants (given as groups of attempts, in display order), paired on
 * (caseId, repeat): effect, interval, test, and the Holm-adjusted p within the metric's family.
 */
export function compareVariants(
  groups: ReadonlyArray<readonly AttemptScores[]>,
  bootstrap: BootstrapOptions,
): MetricComparison[] {
  const couples: Array<{ a: string; b: string; pairs: Pair[] }> = [];
  groups.forEach((a, i) => {
    groups
      .slice(i + 1)
      .forEach((b) =>
        couples.push({ a: (a[0] as AttemptScores).variant, b: (b[0] as AttemptScores).variant, pairs: pairUp(a, b) }),
      );
  });
  return COMPARED_METRICS.map((metric): MetricComparison => {
    const family = couples.filter((couple) =>
      couple.pairs.some(([left, right]) => metric.value(left) !== null && metric.value(right) !== null),
    ).length;
    if (metric.kind === 'rate') {
      const rows = adjust(
        couples.map((couple) => rateEffect(metric, couple, family)),
        metric.direction,
        rateFavoursA,
      );
      return { metric: metric.metric, over: metric.over, direction: metric.direction, test: 'mcnemar-exact', rows };
    }
    const rows = adjust(
      couples.map((couple) => shiftEffect(metric, couple, bootstrap, family)),
      metric.direction,
      shiftFavoursA,
    );
    return {
      metric: metric.metric,
      over: metric.over,
      direction: metric.direction,
      test: 'wilcoxon-signed-rank',
      unit: metric.unit,
      rows,
    };
  });
}

/** Holm over the family, then the better variant where the adjusted p is below ALPHA. */
function adjust<T extends RateEffect | ShiftEffect>(
  rows: T[],
  direction: 'higher' | 'lower',
  aIsHigher: (row: T) => boolean | null,
): T[] {
  const adjusted = holm(rows.map((row) => row.p));
  return rows.map((row, index) => {
    const pAdjusted = adjusted[index] ?? null;
    const higher = aIsHigher(row);
    const better =
      pAdjusted === null || pAdjusted >= ALPHA || higher === null
        ? null
        : higher === (direction === 'higher')
          ? row.a
          : row.b;
    return { ...row, pAdjusted, better };
  });
}

const rateFavoursA = (row: RateEffect): boolean | null => (row.aOnly === row.bOnly ? null : row.aOnly > row.bOnly);

/** V above its null mean n(n+1)/4 means a was the higher one. */
function shiftFavoursA(row: ShiftEffect): boolean | null {
  if (row.statistic === null) return null;
  const ranked = row.pairs - row.zeros;
  const centre = (ranked * (ranked + 1)) / 4;
  return row.statistic === centre ? null : row.statistic > centre;
}

function rateEffect(
  metric: ComparedRate,
  { a, b, pairs }: { a: string; b: string; pairs: Pair[] },
  family: number,
): RateEffect {
  const counts = pairedCounts(pairs.map(([left, right]) => [metric.value(left), metric.value(right)] as const));
  const paired = counts.both + counts.aOnly + counts.bOnly + counts.neither;
  const interval = newcombePaired(counts);
  return {
    a,
    b,
    pairs: paired,
    ...counts,
    difference: interval?.difference ?? null,
    low: interval?.low ?? null,
    high: interval?.high ?? null,
    p: paired === 0 ? null : mcnemarExact(counts.aOnly, counts.bOnly).p,
    pAdjusted: null,
    better: null,
    mde:
      paired === 0
        ? null
        : mcnemarMde(paired, (counts.aOnly + counts.bOnly) / paired, ALPHA / Math.max(1, family), POWER),
  };
}

function shiftEffect(
  metric: ComparedShift,
  { a, b, pairs }: { a: string; b: string; pairs: Pair[] },
  bootstrap: BootstrapOptions,
  family: number,
): ShiftEffect {
  const values = pairs.flatMap(([left, right]): Array<readonly [number, number]> => {
    const [x, y] = [metric.value(left), metric.value(right)];
    return x === null || y === null ? [] : [[x, y]];
  });
  if (values.length === 0) {
    return {
      a,
      b,
      pairs: 0,
      zeros: 0,
      method: null,
      statistic: null,
      medianDifference: null,
      low: null,
      high: null,
      p: null,
      pAdjusted: null,
      better: null,
      mde: null,
    };
  }
  const test = wilcoxonSignedRank(values);
  // seeded per metric and pair of names, so an interval does not move when other variants join the run
  const effect = medianDifference(values, {
    seed: (bootstrap.seed ^ hashString(`${metric.metric}:${a}:${b}`)) >>> 0,
    resamples: bootstrap.resamples,
  });
  return {
    a,
    b,
    pairs: values.length,
    zeros: test.zeros,
    method: test.method,
    statistic: test.statistic,
    medianDifference: effect?.median ?? null,
    low: effect?.low ?? null,
    high: effect?.high ?? null,
    p: test.p,
    pAdjusted: null,
    better: null,
    mde: wilcoxonMde(
      values.length,
      standardDeviation(values.map(([x, y]) => x - y)),
      ALPHA / Math.max(1, family),
      POWER,
    ),
  };
}
