import { describe, expect, it } from 'vitest';
import {
  connorPairs,
  mcnemarExact,
  mcnemarMde,
  mcnemarPower,
  mulberry32,
  normalQuantileUpper,
  wilcoxonMde,
  wilcoxonPairs,
  wilcoxonSignedRank,
} from '../../src/stats/index.js';

describe('power of McNemar’s test', () => {
  it('gives Connor’s (1987, Biometrics 43:209) worked example: p10 = 0.05, p01 = 0.45, 80 % power at 0.05 → 22 pairs', () => {
    // ψ = 0.5, δ = 0.4; R's MESS::power_mcnemar_test(paid = 0.05, psi = 9, power = 0.8) gives n = 22.0 as well
    expect(connorPairs(0.5, 0.4, 0.05, 0.8)).toBeCloseTo(22.01, 2);
    expect(normalQuantileUpper(0.025)).toBeCloseTo(1.959964, 5);
    expect(normalQuantileUpper(0.2)).toBeCloseTo(0.841621, 5);
  });

  it('gives the exact unconditional power of the validated example: 144 pairs, p10 = 0.25, p01 = 0.45, one-sided 0.025 → 0.80', () => {
    // MESS::power_mcnemar_test(144, paid = 0.25, psi = 1.8, method = "exact", alternative = "one.sided", sig.level = 0.025)
    expect(mcnemarPower(144, 0.7, 0.2, 0.05)).toBeCloseTo(0.8, 2);
    expect(mcnemarPower(144, 0.7, 0, 0.05)).toBeLessThan(0.05);
  });

  it('agrees with a simulation of the exact test', () => {
    const random = mulberry32(7);
    const [n, p10, p01] = [40, 0.3, 0.05];
    let rejected = 0;
    const runs = 4000;
    for (let run = 0; run < runs; run += 1) {
      let [aOnly, bOnly] = [0, 0];
      for (let i = 0; i < n; i += 1) {
        const u = random();
        if (u < p10) aOnly += 1;
        else if (u < p10 + p01) bOnly += 1;
      }
      if (mcnemarExact(aOnly, bOnly).p < 0.05) rejected += 1;
    }
    expect(rejected / runs).toBeCloseTo(mcnemarPower(n, p10 + p01, p10 - p01, 0.05), 1);
  });

  it('says what the issue’s 13 controls over 15 Holm pairs can detect: nothing under 77 points, 80 % power needs more', () => {
    // p < 0.05 / 15 needs 10 of 13 discordant all one way (2 · 0.5¹⁰ ≈ 0.002): 10/13 = 77 points is the floor
    const mde = mcnemarMde(13, 6 / 13, 0.05 / 15, 0.8);
    expect(mde).not.toBeNull();
    expect(mde!).toBeGreaterThan(10 / 13);
    expect(mcnemarPower(13, mde!, mde!, 0.05 / 15)).toBeGreaterThanOrEqual(0.8);
    // two pairs can never reach 0.05: no difference is detectable
    expect(mcnemarMde(2, 1, 0.05, 0.8)).toBeNull();
    // more pairs, smaller effect
    expect(mcnemarMde(400, 0.2, 0.05, 0.8)!).toBeLessThan(mcnemarMde(100, 0.2, 0.05, 0.8)!);
  });
});

describe('minimum detectable shift of the signed-rank test', () => {
  it('is the paired t test’s (z(α/2) + z(β)) σ / √n over √(3/π), and its inverse is the pairs needed', () => {
    expect(wilcoxonMde(30, 1, 0.05, 0.8)).toBeCloseTo((2.801585 / Math.sqrt(30)) * Math.sqrt(Math.PI / 3), 4);
    expect(wilcoxonPairs(wilcoxonMde(30, 1, 0.05, 0.8)!, 1, 0.05, 0.8)).toBeCloseTo(30, 6);
    expect(wilcoxonMde(4, 1, 0.05, 0.8)).toBeNull();
    expect(wilcoxonMde(30, 0, 0.05, 0.8)).toBeNull();
  });

  it('detects its own MDE about 80 % of the time on normal differences (seeded simulation)', () => {
    const random = mulberry32(11);
    const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const n = 30;
    const shift = wilcoxonMde(n, 1, 0.05, 0.8)!;
    let rejected = 0;
    const runs = 1500;
    for (let run = 0; run < runs; run += 1) {
      const pairs = Array.from({ length: n }, () => [shift + normal(), 0] as const);
      if (wilcoxonSignedRank(pairs).p < 0.05) rejected += 1;
    }
    expect(rejected / runs).toBeGreaterThan(0.74);
    expect(rejected / runs).toBeLessThan(0.86);
  });
});
