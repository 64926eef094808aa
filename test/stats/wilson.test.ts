import { describe, expect, it } from 'vitest';
import { wilson } from '../../src/stats/index.js';

describe('wilson', () => {
  it('gives 0.397–0.892 for 7 of 10 (issue 8; scipy binomtest(7, 10).proportion_ci(method="wilson") agrees)', () => {
    const interval = wilson(7, 10);
    expect(interval?.low).toBeCloseTo(0.3968, 4);
    expect(interval?.high).toBeCloseTo(0.8922, 4);
  });

  it('is symmetric: k of n mirrors n − k of n', () => {
    const seven = wilson(7, 10);
    const three = wilson(3, 10);
    expect(three?.low).toBeCloseTo(1 - (seven?.high ?? 0), 12);
    expect(three?.high).toBeCloseTo(1 - (seven?.low ?? 0), 12);
  });
});
