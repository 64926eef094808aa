import { describe, expect, it } from 'vitest';
import { DEFAULT_BOOTSTRAP, medianDifference, newcombePaired } from '../../src/stats/index.js';
import { COMPARED_METRICS } from '../../src/summary/compared-metrics.js';
import { compareVariants } from '../../src/summary/comparisons.js';
import type { MetricComparison, RateEffect, ShiftEffect } from '../../src/summary/schema-comparisons.js';
import { A, B, C, CONTROLS, HW_A, HW_B } from '../report/variant-fixtures.js';

const rateRows = (families: readonly MetricComparison[], metric: string): RateEffect[] => {
  const family = families.find((entry) => entry.metric === metric);
  if (family?.test !== 'mcnemar-exact') throw new Error(`no rate family ${metric}`);
  return family.rows;
};
const shiftRows = (families: readonly MetricComparison[], metric: string): ShiftEffect[] => {
  const family = families.find((entry) => entry.metric === metric);
  if (family?.test !== 'wilcoxon-signed-rank') throw new Error(`no shift family ${metric}`);
  return family.rows;
};

const controlsOf = (variant: string) => CONTROLS.filter((attempt) => attempt.variant === variant);

describe('compareVariants', () => {
  describe('two variants', () => {
    const families = compareVariants(
      [
        [...A, ...controlsOf(A[0]!.variant)],
        [...B, ...controlsOf(B[0]!.variant)],
      ],
      DEFAULT_BOOTSTRAP,
    );

    it('has one family per compared metric, each saying what it counts over and which way is better', () => {
      expect(families.map((family) => [family.metric, family.over, family.direction, family.test])).toEqual([
        ['interrupted', 'hangs', 'higher', 'mcnemar-exact'],
        ['false_kill', 'controls', 'lower', 'mcnemar-exact'],
        ['interrupt_latency', 'hangs', 'lower', 'wilcoxon-signed-rank'],
        ['solved', 'all', 'higher', 'mcnemar-exact'],
        ['fixed', 'hangs', 'higher', 'mcnemar-exact'],
        ['diagnosed', 'hangs-with-culprit', 'higher', 'mcnemar-exact'],
        ['tokens', 'all', 'lower', 'wilcoxon-signed-rank'],
      ]);
      expect(families.map((family) => family.metric)).toEqual(COMPARED_METRICS.map((metric) => metric.metric));
      expect(families.every((family) => family.rows.length === 1)).toBe(true);
    });

    it('interrupted: McNemar exact on the discordant hang pairs (1 and 8: p = 0.039), the difference a − b with Newcombe’s interval, b named better', () => {
      const [row] = rateRows(families, 'interrupted');
      expect(row).toMatchObject({
        a: 'baseline·interval-2s',
        b: 'baseline·no-output-2s',
        pairs: 12,
        both: 2,
        neither: 1,
        aOnly: 1,
        bOnly: 8,
      });
      expect(row!.p).toBeCloseTo(20 / 512, 12);
      // a family of one: Holm leaves it alone
      expect(row!.pAdjusted).toBe(row!.p);
      const interval = newcombePaired({ both: 2, aOnly: 1, bOnly: 8, neither: 1 })!;
      expect(row).toMatchObject({
        difference: interval.difference,
        low: interval.low,
        high: interval.high,
        better: 'baseline·no-output-2s',
      });
      expect(row!.difference).toBeCloseTo(-7 / 12, 12);
      expect(row!.high).toBeLessThan(0);
    });

    it('solved counts controls too, false_kill controls only', () => {
      // A also solved the control B falsely killed: discordant 2 and 8, p = 2 · 56/1024, no difference shown
      const [solved] = rateRows(families, 'solved');
      expect(solved).toMatchObject({ pairs: 14, both: 3, neither: 1, aOnly: 2, bOnly: 8, better: null });
      expect(solved!.p).toBeCloseTo(112 / 1024, 12);
      const [kills] = rateRows(families, 'false_kill');
      // B falsely killed one of two controls: −0.5, far from significant
      expect(kills).toMatchObject({
        pairs: 2,
        both: 0,
        aOnly: 0,
        bOnly: 1,
        neither: 1,
        difference: -0.5,
        p: 1,
        better: null,
      });
    });

    it('latency: Wilcoxon signed-rank where both interrupted (Hollander & Wolfe: V = 40, p = 0.039), the median a − b with a bootstrap interval', () => {
      const [row] = shiftRows(families, 'interrupt_latency');
      expect(row).toMatchObject({
        method: 'exact',
        pairs: 9,
        zeros: 0,
        statistic: 40,
        medianDifference: 490,
        better: 'baseline·no-output-2s',
      });
      expect(row!.p).toBeCloseTo(20 / 512, 12);
      const pairs = HW_A.map((value, index) => [value, HW_B[index]!] as const);
      const effect = medianDifference(pairs, { seed: 1, resamples: 10 });
      expect(effect?.median).toBe(490);
      expect(row!.low).toBeLessThanOrEqual(490);
      expect(row!.high).toBeGreaterThanOrEqual(490);
      expect(HW_A.map((value, index) => value - HW_B[index]!)).toEqual(expect.arrayContaining([row!.low, row!.high]));
    });

    it('tokens: equal on every pair, so no difference shown', () => {
      expect(shiftRows(families, 'tokens')[0]).toMatchObject({
        pairs: 14,
        zeros: 14,
        medianDifference: 0,
        low: 0,
        high: 0,
        p: 1,
        better: null,
      });
    });

    it('does not depend on the order of the attempts', () => {
      const shuffled = compareVariants(
        [[...A, ...controlsOf(A[0]!.variant)].reverse(), [...B, ...controlsOf(B[0]!.variant)].reverse()],
        DEFAULT_BOOTSTRAP,
      );
      expect(shuffled).toEqual(families);
    });
  });

  describe('three variants', () => {
    const families = compareVariants([A, B, C], DEFAULT_BOOTSTRAP);
    const [ab, ac, bc] = rateRows(families, 'solved');
    const [abLatency, acLatency, bcLatency] = shiftRows(families, 'interrupt_latency');

    it('compares every two, in group order', () => {
      expect([ab, ac, bc].map((row) => `${row?.a} vs ${row?.b}`)).toEqual([
        'baseline·interval-2s vs baseline·no-output-2s',
        'baseline·interval-2s vs baseline·timeout-5s',
        'baseline·no-output-2s vs baseline·timeout-5s',
      ]);
    });

    it('says which method it used: normal with zero differences, exact without ties', () => {
      // A vs C: seven equal latencies dropped, two ranked: V = 3, normal p = 0.3711 (scipy.stats.wilcoxon, correction=True agrees)
      expect(acLatency).toMatchObject({ method: 'normal', pairs: 9, zeros: 7, statistic: 3 });
      expect(acLatency?.p).toBeCloseTo(0.37109, 4);
      // B vs C: nine distinct |differences|, V = 6: exact p = 2 · 14/512
      expect(bcLatency).toMatchObject({ method: 'exact', pairs: 9, zeros: 0, statistic: 6 });
      expect(bcLatency?.p).toBeCloseTo(28 / 512, 12);
    });

    it('Holm-corrects each metric over the three pairs, and names a better variant only below α after Holm', () => {
      expect(ac).toMatchObject({ aOnly: 0, bOnly: 0, p: 1, pAdjusted: 1, better: null, difference: 0 });
      // solved: p = [20/512, 1, 20/512] → the two smallest times 3 and 2, made monotone: 60/512 each, above 0.05
      expect(ab?.pAdjusted).toBeCloseTo(60 / 512, 12);
      expect(bc?.pAdjusted).toBeCloseTo(60 / 512, 12);
      expect([ab?.better, bc?.better]).toEqual([null, null]);
      // latency: p = [20/512, 0.3711, 28/512] → 3 · 20/512, max(2 · 28/512, that), 0.3711
      expect(abLatency?.pAdjusted).toBeCloseTo(60 / 512, 12);
      expect(bcLatency?.pAdjusted).toBeCloseTo(60 / 512, 12);
      expect(acLatency?.pAdjusted).toBeCloseTo(0.37109, 4);
      expect(abLatency?.better).toBeNull();
    });
  });

  it('leaves a row empty without pairs: no effect, no test, no verdict', () => {
    const noLatency = A.map((attempt) => ({
      ...attempt,
      variant: 'x',
      scores: { ...attempt.scores, interrupt_latency: null },
    }));
    expect(shiftRows(compareVariants([A, noLatency], DEFAULT_BOOTSTRAP), 'interrupt_latency')[0]).toMatchObject({
      pairs: 0,
      medianDifference: null,
      low: null,
      p: null,
      pAdjusted: null,
      better: null,
    });
    const elsewhere = A.map((attempt) => ({ ...attempt, variant: 'y', caseId: `other-${attempt.caseId}` }));
    expect(rateRows(compareVariants([A, elsewhere], DEFAULT_BOOTSTRAP), 'solved')[0]).toMatchObject({
      pairs: 0,
      difference: null,
      low: null,
      p: null,
      pAdjusted: null,
      better: null,
    });
  });

  it('has families without rows for one variant', () => {
    expect(compareVariants([A], DEFAULT_BOOTSTRAP).every((family) => family.rows.length === 0)).toBe(true);
  });
});
