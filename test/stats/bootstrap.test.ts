import { describe, expect, it } from 'vitest';
import { bootstrapPercentiles, mulberry32, percentile } from '../../src/stats/index.js';

const LATENCIES = [1200, 1500, 1800, 2100, 2500, 3000, 3400, 4100, 5200, 9000, 12_000, 30_000];

describe('mulberry32', () => {
  it('is a fixed stream for a seed, in [0, 1)', () => {
    const first = Array.from({ length: 5 }, mulberry32(42));
    const again = Array.from({ length: 5 }, mulberry32(42));
    expect(again).toEqual(first);
    expect(Array.from({ length: 5 }, mulberry32(43))).not.toEqual(first);
    for (const value of Array.from({ length: 1000 }, mulberry32(7))) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it('matches the reference implementation’s first output for seed 1', () => {
    // the reference implementation (github.com/bryc/code, jshash/PRNGs.md) run with a = 1 gives this first value
    expect(mulberry32(1)()).toBe(0.6270739405881613);
  });
});

describe('bootstrapPercentiles', () => {
  it('gives the same intervals for the same seed, and the seed is what varies them', () => {
    const first = bootstrapPercentiles(LATENCIES, [50, 90], { seed: 7, resamples: 2000 });
    expect(bootstrapPercentiles(LATENCIES, [50, 90], { seed: 7, resamples: 2000 })).toEqual(first);
    // with few resamples the ends depend on the draw, so different seeds must give different intervals
    const few = Array.from({ length: 10 }, (_, seed) =>
      JSON.stringify(bootstrapPercentiles(LATENCIES, [50, 90], { seed, resamples: 20 })),
    );
    expect(new Set(few).size).toBeGreaterThan(1);
  });

  it('brackets the sample percentile with observed values', () => {
    const [p50, p90] = bootstrapPercentiles(LATENCIES, [50, 90], { seed: 3, resamples: 2000 });
    for (const [interval, q] of [
      [p50, 50],
      [p90, 90],
    ] as const) {
      const point = percentile(LATENCIES, q) as number;
      expect(interval?.low).toBeLessThanOrEqual(point);
      expect(interval?.high).toBeGreaterThanOrEqual(point);
      expect(LATENCIES).toContain(interval?.low);
      expect(LATENCIES).toContain(interval?.high);
    }
    expect((p50?.high ?? 0) - (p50?.low ?? 0)).toBeGreaterThan(0);
  });

  it('collapses to the value for a constant sample, and is null for none', () => {
    expect(bootstrapPercentiles([4, 4, 4], [50], { seed: 1, resamples: 100 })).toEqual([{ low: 4, high: 4 }]);
    expect(bootstrapPercentiles([], [50, 90])).toEqual([null, null]);
    expect(() => bootstrapPercentiles([1], [50], { seed: 1, resamples: 0 })).toThrow(RangeError);
  });
});
