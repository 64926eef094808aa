import { describe, expect, it } from 'vitest';
import { compareVariants } from '../../src/report/comparisons.js';
import { A, B, C } from './variant-fixtures.js';

describe('compareVariants', () => {
  describe('two variants', () => {
    const [ab] = compareVariants([A, B]);

    it('pairs attempts on (caseId, repeat) and runs McNemar exact on solved: discordant 1 and 8 give p = 0.039', () => {
      expect(compareVariants([A, B])).toHaveLength(1);
      expect(ab).toMatchObject({ a: 'baseline·interval-2s', b: 'baseline·no-output-2s', pairs: 12 });
      expect(ab?.solved).toMatchObject({ test: 'mcnemar-exact', pairs: 12, both: 2, neither: 1, aOnly: 1, bOnly: 8 });
      expect(ab?.solved.p).toBeCloseTo(20 / 512, 12);
      // a family of one: Holm leaves it alone
      expect(ab?.solved.pAdjusted).toBe(ab?.solved.p);
    });

    it('runs Wilcoxon signed-rank on the pairs where both have a latency (Hollander & Wolfe: V = 40, exact p = 0.039)', () => {
      expect(ab?.latency).toMatchObject({ test: 'wilcoxon-signed-rank', method: 'exact', pairs: 9, zeros: 0, statistic: 40, medianDifferenceMs: 490 });
      expect(ab?.latency?.p).toBeCloseTo(20 / 512, 12);
      expect(ab?.latency?.pAdjusted).toBe(ab?.latency?.p);
    });

    it('does not depend on the order of the attempts', () => {
      const [shuffled] = compareVariants([[...A].reverse(), [...B].reverse()]);
      expect(shuffled).toEqual(ab);
    });
  });

  describe('three variants', () => {
    const [ab, ac, bc] = compareVariants([A, B, C]);

    it('compares every two, in group order', () => {
      expect([ab, ac, bc].map((comparison) => `${comparison?.a} vs ${comparison?.b}`)).toEqual([
        'baseline·interval-2s vs baseline·no-output-2s',
        'baseline·interval-2s vs baseline·timeout-5s',
        'baseline·no-output-2s vs baseline·timeout-5s',
      ]);
    });

    it('says which method it used: normal with zero differences, exact without ties', () => {
      // A vs C: seven equal latencies dropped, two ranked: V = 3, normal p = 0.3711 (scipy.stats.wilcoxon, correction=True agrees)
      expect(ac?.latency).toMatchObject({ method: 'normal', pairs: 9, zeros: 7, statistic: 3 });
      expect(ac?.latency?.p).toBeCloseTo(0.37109, 4);
      // B vs C: nine distinct |differences|, V = 6: exact p = 2 · 14/512
      expect(bc?.latency).toMatchObject({ method: 'exact', pairs: 9, zeros: 0, statistic: 6 });
      expect(bc?.latency?.p).toBeCloseTo(28 / 512, 12);
    });

    it('Holm-corrects each family of tests across the three pairs', () => {
      expect(ac?.solved).toMatchObject({ aOnly: 0, bOnly: 0, p: 1, pAdjusted: 1 });
      // solved: p = [20/512, 1, 20/512] → the two smallest times 3 and 2, made monotone: 60/512 each
      expect(ab?.solved.pAdjusted).toBeCloseTo(60 / 512, 12);
      expect(bc?.solved.pAdjusted).toBeCloseTo(60 / 512, 12);
      // latency: p = [20/512, 0.3711, 28/512] → 3 · 20/512, max(2 · 28/512, that), 0.3711
      expect(ab?.latency?.pAdjusted).toBeCloseTo(60 / 512, 12);
      expect(bc?.latency?.pAdjusted).toBeCloseTo(60 / 512, 12);
      expect(ac?.latency?.pAdjusted).toBeCloseTo(0.37109, 4);
    });
  });

  it('has no latency test without latency pairs, and no solved p without pairs', () => {
    const noLatency = A.map((attempt) => ({ ...attempt, variant: 'x', scores: { ...attempt.scores, interrupt_latency: null } }));
    expect(compareVariants([A, noLatency])[0]?.latency).toBeNull();
    const elsewhere = A.map((attempt) => ({ ...attempt, variant: 'y', caseId: `other-${attempt.caseId}` }));
    expect(compareVariants([A, elsewhere])[0]).toMatchObject({ pairs: 0, solved: { p: null, pAdjusted: null }, latency: null });
  });

  it('is empty for one variant', () => {
    expect(compareVariants([A])).toEqual([]);
  });
});
