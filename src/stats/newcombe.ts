import { wilson } from './wilson.js';

/** Paired binary outcomes of `a` and `b` on the same items: the four cells of the 2 × 2 table. */
export interface PairedCounts {
  readonly both: number;
  /** a succeeded, b did not: the discordant pairs that favour a */
  readonly aOnly: number;
  readonly bOnly: number;
  readonly neither: number;
}

/** The 2 × 2 table of paired yes/no outcomes `[a, b]`; a pair where either side has no value is left out. */
export function pairedCounts(pairs: Iterable<readonly [boolean | null, boolean | null]>): PairedCounts {
  const counts = { both: 0, aOnly: 0, bOnly: 0, neither: 0 };
  for (const [x, y] of pairs) {
    if (x === null || y === null) continue;
    if (x && y) counts.both += 1;
    else if (x) counts.aOnly += 1;
    else if (y) counts.bOnly += 1;
    else counts.neither += 1;
  }
  return counts;
}

export interface PairedDifference {
  /** rate of a − rate of b over the pairs: (aOnly − bOnly) / pairs */
  readonly difference: number;
  readonly low: number;
  readonly high: number;
}

/**
 * 95 % interval for the difference of two paired proportions by Newcombe's method 10 (Newcombe 1998, Stat Med
 * 17:2635, "square and add" of the two Wilson intervals, with the correlation φ of the pairs, its numerator
 * continuity-corrected as in the paper). null when there are no pairs.
 */
export function newcombePaired(counts: PairedCounts): PairedDifference | null {
  const { both, aOnly, bOnly, neither } = counts;
  if (![both, aOnly, bOnly, neither].every((value) => Number.isInteger(value) && value >= 0)) {
    throw new RangeError(`newcombe: counts must be non-negative integers, got ${JSON.stringify(counts)}`);
  }
  const n = both + aOnly + bOnly + neither;
  if (n === 0) return null;
  const [successA, successB] = [both + aOnly, both + bOnly];
  const [p1, p2] = [successA / n, successB / n];
  const first = wilson(successA, n)!;
  const second = wilson(successB, n)!;
  const phi = correlation(counts, n);
  const difference = p1 - p2;
  const below = Math.sqrt(
    Math.max(0, (p1 - first.low) ** 2 - 2 * phi * (p1 - first.low) * (second.high - p2) + (second.high - p2) ** 2),
  );
  const above = Math.sqrt(
    Math.max(0, (p2 - second.low) ** 2 - 2 * phi * (p2 - second.low) * (first.high - p1) + (first.high - p1) ** 2),
  );
  return { difference, low: Math.max(-1, difference - below), high: Math.min(1, difference + above) };
}

/** φ of the 2 × 2 table; a positive numerator is reduced by n/2 (to no less than 0); 0 when a margin is empty. */
function correlation({ both, aOnly, bOnly, neither }: PairedCounts, n: number): number {
  const margins = (both + aOnly) * (bOnly + neither) * (both + bOnly) * (aOnly + neither);
  if (margins === 0) return 0;
  const cross = both * neither - aOnly * bOnly;
  const corrected = cross > n / 2 ? cross - n / 2 : cross >= 0 ? 0 : cross;
  return corrected / Math.sqrt(margins);
}
