import { describe, expect, it } from 'vitest';
import { passAtK, passAtKCurve, passHatK } from '../../src/stats/index.js';

/** C(n, k) by the definition, for checking the product forms. */
const choose = (n: number, k: number): number => (k < 0 || k > n ? 0 : k === 0 ? 1 : (choose(n - 1, k - 1) * n) / k);

describe('passAtK (Chen et al. 2021 unbiased estimator)', () => {
  it('matches hand-computed values', () => {
    // n = 5, c = 2, k = 2: 1 − C(3,2)/C(5,2) = 1 − 3/10
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    // k = 1 is the plain success rate c/n
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12);
    // n = 10, c = 3, k = 5: 1 − C(7,5)/C(10,5) = 1 − 21/252
    expect(passAtK(10, 3, 5)).toBeCloseTo(1 - 21 / 252, 12);
    // more attempts than failures: some draw must contain a success
    expect(passAtK(3, 1, 3)).toBe(1);
    expect(passAtK(3, 0, 3)).toBe(0);
  });

  it('agrees with 1 − C(n−c, k)/C(n, k) everywhere on a small grid', () => {
    for (let n = 1; n <= 8; n += 1)
      for (let c = 0; c <= n; c += 1)
        for (let k = 1; k <= n; k += 1) expect(passAtK(n, c, k)).toBeCloseTo(1 - choose(n - c, k) / choose(n, k), 12);
  });

  it('refuses impossible counts', () => {
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 4)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 0)).toThrow(RangeError);
  });
});

describe('passHatK (all k solved)', () => {
  it('matches hand-computed values', () => {
    // n = 5, c = 2, k = 2: C(2,2)/C(5,2) = 1/10
    expect(passHatK(5, 2, 2)).toBeCloseTo(0.1, 12);
    // n = 4, c = 3, k = 2: C(3,2)/C(4,2) = 3/6
    expect(passHatK(4, 3, 2)).toBeCloseTo(0.5, 12);
    // with n = k it is "every attempt solved"
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(3, 2, 3)).toBe(0);
  });

  it('agrees with C(c, k)/C(n, k) on a small grid', () => {
    for (let n = 1; n <= 8; n += 1)
      for (let c = 0; c <= n; c += 1)
        for (let k = 1; k <= n; k += 1) expect(passHatK(n, c, k)).toBeCloseTo(choose(c, k) / choose(n, k), 12);
  });
});

describe('passAtKCurve', () => {
  it('averages per-case estimates over cases, for k up to the fewest attempts', () => {
    // case A solved 3 of 3, case B 1 of 3, case C 0 of 3
    const curve = passAtKCurve([
      { attempts: 3, solved: 3 },
      { attempts: 3, solved: 1 },
      { attempts: 3, solved: 0 },
    ]);
    expect(curve.map((point) => point.k)).toEqual([1, 2, 3]);
    expect(curve[0]?.passAtK).toBeCloseTo((1 + 1 / 3 + 0) / 3, 12);
    expect(curve[0]?.passHatK).toBeCloseTo((1 + 1 / 3 + 0) / 3, 12);
    // k = 2: B has pass@2 = 1 − C(2,2)/C(3,2) = 2/3, pass^2 = 0
    expect(curve[1]?.passAtK).toBeCloseTo((1 + 2 / 3 + 0) / 3, 12);
    expect(curve[1]?.passHatK).toBeCloseTo(1 / 3, 12);
    expect(curve[2]).toMatchObject({ k: 3, cases: 3 });
    expect(curve[2]?.passAtK).toBeCloseTo(2 / 3, 12);
    expect(curve[2]?.passHatK).toBeCloseTo(1 / 3, 12);
  });

  it('stops at the smallest number of attempts a case had, and is empty for no cases', () => {
    expect(
      passAtKCurve([
        { attempts: 3, solved: 1 },
        { attempts: 2, solved: 2 },
      ]).map((point) => point.k),
    ).toEqual([1, 2]);
    expect(passAtKCurve([])).toEqual([]);
  });
});
