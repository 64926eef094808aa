import { normalUpperTail } from './normal.js';

export interface WilcoxonResult {
  readonly test: 'wilcoxon-signed-rank';
  /** exact null distribution (n < 50, no ties, no zero differences), else the normal approximation with tie and continuity correction. */
  readonly method: 'exact' | 'normal';
  /** pairs with a non-zero difference: the ones ranked. */
  readonly n: number;
  /** pairs with a zero difference, dropped before ranking (Wilcoxon's convention, as R does). */
  readonly zeros: number;
  /** V = W+: the sum of the ranks of |a − b| over the pairs where a > b (R's `V`). */
  readonly statistic: number;
  /** two-sided */
  readonly p: number;
}

/** Below this many ranked pairs and without ties, the exact distribution is used (R's wilcox.test default). */
const EXACT_BELOW = 50;

/** Wilcoxon signed-rank test on paired samples, two-sided, computed as R's wilcox.test(a, b, paired = TRUE). */
export function wilcoxonSignedRank(pairs: ReadonlyArray<readonly [number, number]>): WilcoxonResult {
  const differences = pairs.map(([a, b]) => a - b);
  const nonZero = differences.filter((difference) => difference !== 0);
  const zeros = differences.length - nonZero.length;
  const n = nonZero.length;
  if (n === 0) return { test: 'wilcoxon-signed-rank', method: 'exact', n, zeros, statistic: 0, p: 1 };
  const { ranks, tieSizes } = averageRanks(nonZero.map(Math.abs));
  const statistic = nonZero.reduce(
    (sum, difference, index) => (difference > 0 ? sum + (ranks[index] as number) : sum),
    0,
  );
  const exact = n < EXACT_BELOW && tieSizes.length === 0 && zeros === 0;
  const p = exact ? exactP(statistic, n) : normalP(statistic, n, tieSizes);
  return { test: 'wilcoxon-signed-rank', method: exact ? 'exact' : 'normal', n, zeros, statistic, p };
}

/** Ranks 1..n of the values, ties sharing their average rank; the sizes of the tied groups (> 1). */
function averageRanks(values: readonly number[]): { ranks: number[]; tieSizes: number[] } {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  const tieSizes: number[] = [];
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.value === order[start]?.value) end += 1;
    const rank = (start + end) / 2 + 1;
    for (let at = start; at <= end; at += 1) ranks[(order[at] as { index: number }).index] = rank;
    if (end > start) tieSizes.push(end - start + 1);
    start = end + 1;
  }
  return { ranks, tieSizes };
}

/** Twice the smaller tail of the exact null distribution of V: each rank is positive with probability 1/2. */
function exactP(statistic: number, n: number): number {
  const total = (n * (n + 1)) / 2;
  let distribution = [1];
  for (let rank = 1; rank <= n; rank += 1) {
    const next = new Array<number>(distribution.length + rank).fill(0);
    distribution.forEach((probability, sum) => {
      next[sum] = (next[sum] as number) + probability / 2;
      next[sum + rank] = (next[sum + rank] as number) + probability / 2;
    });
    distribution = next;
  }
  const tail = Math.min(statistic, total - statistic);
  const lower = distribution.slice(0, Math.floor(tail) + 1).reduce((sum, probability) => sum + probability, 0);
  return Math.min(1, 2 * lower);
}

function normalP(statistic: number, n: number, tieSizes: readonly number[]): number {
  const centred = statistic - (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieSizes.reduce((sum, t) => sum + (t * t * t - t), 0) / 48;
  const z = (centred - Math.sign(centred) * 0.5) / Math.sqrt(variance);
  return Math.min(1, 2 * normalUpperTail(Math.abs(z)));
}
