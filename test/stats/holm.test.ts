import { describe, expect, it } from 'vitest';
import { holm } from '../../src/stats/index.js';

describe('holm', () => {
  it('reproduces the Wikipedia Holm–Bonferroni example: p = .01 .04 .03 .005 → .03 .06 .06 .02', () => {
    // https://en.wikipedia.org/wiki/Holm%E2%80%93Bonferroni_method, "Example": H1 and H4 rejected at α = 0.05.
    const adjusted = holm([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((expected, index) => expect(adjusted[index]).toBeCloseTo(expected, 12));
    expect(adjusted.map((p) => (p ?? 1) < 0.05)).toEqual([true, false, false, true]);
  });

  it('leaves a single p-value alone, caps at 1, and keeps nulls out of the family', () => {
    expect(holm([0.2])).toEqual([0.2]);
    expect(holm([0.6, 0.9])).toEqual([1, 1]);
    const withNull = holm([0.01, null, 0.04]);
    expect(withNull[0]).toBeCloseTo(0.02, 12);
    expect(withNull[1]).toBeNull();
    expect(withNull[2]).toBeCloseTo(0.04, 12);
    expect(holm([])).toEqual([]);
  });
});
