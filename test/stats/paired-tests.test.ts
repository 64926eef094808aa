import { describe, expect, it } from 'vitest';
import { binomialHalfCdf, mcnemarExact, wilcoxonSignedRank } from '../../src/stats/index.js';

describe('mcnemarExact', () => {
  it('gives p = 0.039 for discordant pairs 1 and 8 (2 · P(X ≤ 1), X ~ Bin(9, ½) = 2 · 10/512)', () => {
    const result = mcnemarExact(1, 8);
    expect(result.p).toBeCloseTo(20 / 512, 12);
    expect(result.p.toFixed(3)).toBe('0.039');
    expect(mcnemarExact(8, 1).p).toBe(result.p);
  });

  it('is 1 when the discordant pairs balance or there are none, and caps at 1', () => {
    expect(mcnemarExact(0, 0).p).toBe(1);
    expect(mcnemarExact(3, 3).p).toBe(1);
    expect(mcnemarExact(0, 5).p).toBeCloseTo(2 / 32, 12);
  });

  it('stays finite for thousands of discordant pairs', () => {
    expect(binomialHalfCdf(1000, 2000)).toBeGreaterThan(0.5);
    expect(mcnemarExact(900, 1100).p).toBeGreaterThan(0);
    expect(mcnemarExact(900, 1100).p).toBeLessThan(1e-4);
    expect(binomialHalfCdf(-1, 5)).toBe(0);
    expect(binomialHalfCdf(5, 5)).toBe(1);
  });
});

describe('wilcoxonSignedRank', () => {
  it('reproduces Hollander & Wolfe (1973) p. 29, the example in R’s ?wilcox.test: V = 40, exact two-sided p = 0.0391', () => {
    // Hamilton depression scale factor IV, first (x) and second (y) visit of nine patients.
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const result = wilcoxonSignedRank(x.map((value, index) => [value, y[index] as number] as const));
    expect(result).toMatchObject({ method: 'exact', n: 9, zeros: 0, statistic: 40 });
    // R: wilcox.test(x, y, paired = TRUE, alternative = "greater") gives p = 0.01953; two-sided doubles it (10/512 · 2).
    expect(result.p).toBeCloseTo(20 / 512, 12);
  });

  it('reproduces the Wikipedia worked example (ties and a zero): W = 9 over 9 ranked pairs, normal p = 0.635', () => {
    // https://en.wikipedia.org/wiki/Wilcoxon_signed-rank_test, "Example" (2018 revision): x2 against x1, W = Σ signed ranks = 9.
    const x2 = [125, 115, 130, 140, 140, 115, 140, 125, 140, 135];
    const x1 = [110, 122, 125, 120, 140, 124, 123, 137, 135, 145];
    const result = wilcoxonSignedRank(x2.map((value, index) => [value, x1[index] as number] as const));
    expect(result).toMatchObject({ method: 'normal', n: 9, zeros: 1, statistic: 27 });
    const signedRankSum = result.statistic - ((result.n * (result.n + 1)) / 2 - result.statistic);
    expect(signedRankSum).toBe(9);
    // tie- and continuity-corrected normal approximation, as R's wilcox.test(x2, x1, paired = TRUE): p = 0.6353
    expect(result.p).toBeCloseTo(0.6353, 4);
  });

  it('uses the normal approximation from 50 ranked pairs on, and finds a clear shift', () => {
    const pairs = Array.from({ length: 60 }, (_, index) => [index + 0.5 + (index % 2), index] as const);
    const result = wilcoxonSignedRank(pairs);
    expect(result.method).toBe('normal');
    expect(result.p).toBeLessThan(1e-6);
  });

  it('is p = 1 with nothing to rank', () => {
    expect(wilcoxonSignedRank([[3, 3]])).toMatchObject({ n: 0, zeros: 1, p: 1 });
    expect(wilcoxonSignedRank([])).toMatchObject({ n: 0, zeros: 0, p: 1 });
  });

  it('is symmetric in the two samples', () => {
    const pairs = [
      [5, 1],
      [2, 6],
      [9, 2],
      [4, 3.5],
    ] as const;
    const swapped = pairs.map(([a, b]) => [b, a] as const);
    expect(wilcoxonSignedRank(swapped).p).toBeCloseTo(wilcoxonSignedRank(pairs).p, 12);
  });
});
