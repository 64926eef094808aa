import { describe, expect, it } from 'vitest';
import { binomialHalfCdf, medianDifference, newcombePaired, pairedCounts } from '../../src/stats/index.js';

describe('newcombePaired (Newcombe 1998, method 10)', () => {
  it('matches the published worked example: complete response before and after consolidation therapy', () => {
    // Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables (2017), ch. 8, Cavo et al. 2012:
    // 59 both, 6 before only, 16 after only, 80 neither; Newcombe square-and-add: −0.0621 (95 % CI −0.1186 to −0.0046)
    const result = newcombePaired({ both: 59, aOnly: 6, bOnly: 16, neither: 80 })!;
    expect(result.difference).toBeCloseTo(-0.0621, 4);
    expect(result.low).toBeCloseTo(-0.1186, 4);
    expect(result.high).toBeCloseTo(-0.0046, 4);
  });

  it('is antisymmetric: swapping a and b negates the difference and mirrors the interval', () => {
    const forward = newcombePaired({ both: 14, aOnly: 5, bOnly: 0, neither: 22 })!;
    const backward = newcombePaired({ both: 14, aOnly: 0, bOnly: 5, neither: 22 })!;
    expect(backward.difference).toBeCloseTo(-forward.difference, 12);
    expect(backward.low).toBeCloseTo(-forward.high, 12);
    expect(backward.high).toBeCloseTo(-forward.low, 12);
    expect(forward.low).toBeGreaterThan(0);
  });

  it('stays within [−1, 1], holds the estimate, and narrows as the same table grows', () => {
    const small = newcombePaired({ both: 0, aOnly: 5, bOnly: 0, neither: 0 })!;
    expect(small).toMatchObject({ difference: 1, high: 1 });
    expect(small.low).toBeGreaterThan(0);
    const none = newcombePaired({ both: 3, aOnly: 0, bOnly: 0, neither: 3 })!;
    expect(none.difference).toBe(0);
    expect(none.low).toBeLessThan(0);
    expect(none.high).toBeGreaterThan(0);
    const tenfold = newcombePaired({ both: 590, aOnly: 60, bOnly: 160, neither: 800 })!;
    const once = newcombePaired({ both: 59, aOnly: 6, bOnly: 16, neither: 80 })!;
    expect(tenfold.high - tenfold.low).toBeLessThan((once.high - once.low) / 2);
  });

  it('is null without pairs and refuses counts that are not counts', () => {
    expect(newcombePaired({ both: 0, aOnly: 0, bOnly: 0, neither: 0 })).toBeNull();
    expect(() => newcombePaired({ both: 1.5, aOnly: 0, bOnly: 0, neither: 0 })).toThrow(/non-negative integers/);
  });
});

/** The exact bootstrap distribution of the nearest-rank median: P(median of a resample ≤ x_(k)) = P(Bin(n, k/n) ≥ m). */
function exactBootstrapMedianQuantile(sorted: readonly number[], q: number): number {
  const n = sorted.length;
  const m = Math.ceil(n / 2);
  for (let k = 1; k <= n; k += 1) {
    const p = k / n;
    let atLeast = 0;
    for (let j = m; j <= n; j += 1) atLeast += choose(n, j) * p ** j * (1 - p) ** (n - j);
    if (atLeast >= q) return sorted[k - 1]!;
  }
  return sorted[n - 1]!;
}

function choose(n: number, k: number): number {
  let value = 1;
  for (let i = 1; i <= k; i += 1) value = (value * (n - k + i)) / i;
  return value;
}

describe('pairedCounts', () => {
  it('fills the 2 × 2 table from [a, b] pairs, leaving out a pair where either side has no value', () => {
    const pairs = [
      [true, true],
      [true, false],
      [true, false],
      [false, true],
      [false, false],
      [null, true],
      [false, null],
    ] as const;
    expect(pairedCounts(pairs)).toEqual({ both: 1, aOnly: 2, bOnly: 1, neither: 1 });
    expect(pairedCounts([])).toEqual({ both: 0, aOnly: 0, bOnly: 0, neither: 0 });
  });
});

describe('medianDifference (percentile bootstrap over pairs)', () => {
  // 11 differences: the exact bootstrap CDF of the median has no step within 0.017 of 0.025 or 0.975 (16 standard
  // errors of 20 000 resamples), so the seeded ends must be the exact ones
  const differences = [-9000, -7000, -5000, -4500, -4000, -3000, -2500, -1000, 0, 1500, 5000];
  const pairs = differences.map((difference) => [10_000 + difference, 10_000] as const);

  it('gives the sample median, and ends equal to the exact bootstrap distribution’s 2.5th and 97.5th percentiles', () => {
    const sorted = [...differences].sort((a, b) => a - b);
    const result = medianDifference(pairs, { seed: 11, resamples: 20_000 })!;
    expect(result.median).toBe(-3000);
    expect(result.low).toBe(exactBootstrapMedianQuantile(sorted, 0.025));
    expect(result.high).toBe(exactBootstrapMedianQuantile(sorted, 0.975));
    expect(result.low).toBeLessThan(result.median);
    expect(result.high).toBeGreaterThan(result.median);
  });

  it('is the same for the same seed, a point when every pair differs equally, null without pairs', () => {
    expect(medianDifference(pairs, { seed: 5, resamples: 500 })).toEqual(
      medianDifference(pairs, { seed: 5, resamples: 500 }),
    );
    expect(
      medianDifference([
        [3, 1],
        [5, 3],
        [9, 7],
      ]),
    ).toEqual({ median: 2, low: 2, high: 2 });
    expect(medianDifference([])).toBeNull();
  });

  it('relies on the binomial tail the exact check uses', () => {
    // the helper against the module's own binomial: P(Bin(11, 1/2) ≥ 6) = 1 − P(X ≤ 5)
    let atLeast = 0;
    for (let j = 6; j <= 11; j += 1) atLeast += choose(11, j) * 0.5 ** 11;
    expect(atLeast).toBeCloseTo(1 - binomialHalfCdf(5, 11), 12);
  });
});
