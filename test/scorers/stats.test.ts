import { describe, expect, it } from 'vitest';
import { mean, percentile, wilson } from '../../src/stats/index.js';

describe('wilson', () => {
  it('matches known 95 % intervals', () => {
    const eight = wilson(8, 10);
    expect(eight?.low).toBeCloseTo(0.49, 3);
    expect(eight?.high).toBeCloseTo(0.9433, 3);
    const half = wilson(50, 100);
    expect(half?.low).toBeCloseTo(0.4038, 3);
    expect(half?.high).toBeCloseTo(0.5962, 3);
  });

  it('stays inside [0, 1] at the edges', () => {
    const none = wilson(0, 10);
    expect(none?.low).toBe(0);
    expect(none?.high).toBeCloseTo(0.2775, 3);
    const all = wilson(10, 10);
    expect(all?.low).toBeCloseTo(0.7225, 3);
    expect(all?.high).toBe(1);
    const one = wilson(1, 1);
    expect(one?.low).toBeCloseTo(0.2065, 3);
  });

  it('is null with no trials and refuses impossible counts', () => {
    expect(wilson(0, 0)).toBeNull();
    expect(() => wilson(3, 2)).toThrow(RangeError);
  });
});

describe('percentile (nearest rank)', () => {
  it('returns observed values', () => {
    const values = [15, 20, 35, 40, 50];
    expect(percentile(values, 50)).toBe(35);
    expect(percentile(values, 90)).toBe(50);
    expect(percentile(values, 30)).toBe(20);
    expect(percentile(values, 0)).toBe(15);
    expect(percentile(values, 100)).toBe(50);
  });

  it('does not depend on input order', () => {
    expect(percentile([4, 1, 3, 2], 50)).toBe(2);
    expect(percentile([10, 1, 9, 2, 8, 3, 7, 4, 6, 5], 90)).toBe(9);
  });

  it('is null for no values and refuses q outside 0..100', () => {
    expect(percentile([], 50)).toBeNull();
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('mean', () => {
  it('averages, and is null for nothing', () => {
    expect(mean([1, 2, 6])).toBe(3);
    expect(mean([])).toBeNull();
  });
});
