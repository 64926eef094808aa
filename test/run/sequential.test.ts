import { describe, expect, it } from 'vitest';
import { mcnemarPower, mulberry32, signMixtureBoundary, signMixtureEValue } from '../../src/stats/index.js';

/** One simulated sequential comparison: rounds of `perRound` pairs, each discordant with `discordance`, favouring a with `favoured`. */
interface Simulation {
  readonly perRound: number;
  readonly discordance: number;
  readonly favoured: number;
  readonly maxRounds: number;
  readonly alpha: number;
}

function simulate(
  random: () => number,
  { perRound, discordance, favoured, maxRounds, alpha }: Simulation,
): number | null {
  let [forA, signs] = [0, 0];
  for (let round = 1; round <= maxRounds; round += 1) {
    for (let pair = 0; pair < perRound; pair += 1) {
      if (random() >= discordance) continue;
      signs += 1;
      if (random() < favoured) forA += 1;
    }
    if (signMixtureEValue(forA, signs) >= 1 / alpha) return round;
  }
  return null;
}

describe('the always-valid sign test', () => {
  it('is the Beta(1, 1) mixture’s closed form, and its boundary: 8 signs all one way reject at 0.05, 7 do not', () => {
    // E = 2^d x! (d − x)! / (d + 1)!: all one way, 2^d / (d + 1) — 128/8 = 16 < 20, 256/9 = 28.4 ≥ 20
    expect(signMixtureEValue(7, 7)).toBeCloseTo(16, 10);
    expect(signMixtureEValue(0, 8)).toBeCloseTo(256 / 9, 10);
    expect(signMixtureEValue(2, 4)).toBeCloseTo((16 * 2 * 2) / 120, 10);
    expect(signMixtureBoundary(7, 0.05)).toBe(-1);
    expect(signMixtureBoundary(8, 0.05)).toBe(0);
    expect(signMixtureBoundary(20, 0.05)).toBe(3);
  });

  it('keeps the false-positive rate under α when looked at after every round (seeded simulation, no effect)', () => {
    const random = mulberry32(2026);
    const runs = 4000;
    let rejected = 0;
    for (let run = 0; run < runs; run += 1)
      if (simulate(random, { perRound: 13, discordance: 0.4, favoured: 0.5, maxRounds: 20, alpha: 0.05 }) !== null)
        rejected += 1;
    expect(rejected / runs).toBeLessThanOrEqual(0.05);
  });

  it('a naive test at every round does not: the same looks with McNemar’s fixed-sample p < 0.05 reject too often', () => {
    const random = mulberry32(2026);
    const runs = 2000;
    let rejected = 0;
    for (let run = 0; run < runs; run += 1) {
      let [forA, signs] = [0, 0];
      for (let round = 1; round <= 20; round += 1) {
        for (let pair = 0; pair < 13; pair += 1) {
          if (random() >= 0.4) continue;
          signs += 1;
          if (random() < 0.5) forA += 1;
        }
        const z = Math.abs(2 * forA - signs) / Math.sqrt(Math.max(1, signs));
        if (z > 1.96) {
          rejected += 1;
          break;
        }
      }
    }
    expect(rejected / runs).toBeGreaterThan(0.1);
  });

  it('reaches about the plan’s power when given about twice the plan’s fixed-sample repeats (seeded simulation)', () => {
    // plan: 13 pairs per repeat, 40 % discordant, a − b = 20 pt: the fixed-sample repeats for 80 % power
    const [perRound, discordance, difference, alpha] = [13, 0.4, 0.2, 0.05];
    let planned = 1;
    while (mcnemarPower(planned * perRound, discordance, difference, alpha) < 0.8) planned += 1;
    const random = mulberry32(7);
    const runs = 2000;
    let decided = 0;
    let roundsUsed = 0;
    for (let run = 0; run < runs; run += 1) {
      const round = simulate(random, {
        perRound,
        discordance,
        favoured: (discordance + difference) / (2 * discordance),
        maxRounds: 2 * planned,
        alpha,
      });
      if (round !== null) {
        decided += 1;
        roundsUsed += round;
      }
    }
    expect(decided / runs).toBeGreaterThan(0.75);
    // and it stops early: on average well before its maximum
    expect(roundsUsed / decided).toBeLessThan(1.5 * planned);
  });
});
