import { describe, expect, it } from 'vitest';
import { compareSummaries } from '../../src/report/compare/compare.js';
import { renderComparisonMarkdown, renderComparisonText } from '../../src/report/compare/compare-render.js';
import { summarize } from '../../src/summary/summarize.js';
import type { AttemptScores } from '../../src/types/scores.js';
import { attemptScores } from './scores-fixture.js';

const run = (runId: string, attempts: AttemptScores[]) =>
  summarize(attempts, { runId, startedAt: '2026-12-01T00:00:00Z' });
const cases = (count: number, make: (caseId: string, index: number) => AttemptScores[]) =>
  Array.from({ length: count }, (_, i) => make(`case-${i}`, i)).flat();

describe('compareSummaries', () => {
  const base = run(
    'base',
    cases(30, (caseId) => [attemptScores({ caseId })]),
  );

  it('finds no regression between a run and itself', () => {
    const comparison = compareSummaries(base, base);
    expect(comparison.regressions).toEqual([]);
    expect(comparison.cases).toEqual([]);
    expect(comparison.variants.map((v) => v.variant)).toEqual(['baseline-10s']);
  });

  it('names a case solved in base that fails now', () => {
    const next = run(
      'next',
      cases(30, (caseId, i) => [attemptScores({ caseId, scores: { solved: i !== 7 } })]),
    );
    const comparison = compareSummaries(base, next);
    expect(comparison.regressions.map((r) => [r.kind, r.caseId])).toEqual([['case', 'case-7']]);
    expect(renderComparisonText(comparison)).toContain('case-7 (baseline-10s): solved 1/1 in base, 0/1 now');
    expect(renderComparisonMarkdown(comparison)).toMatch(/❌ 1 regression/);
  });

  it('gives each rate’s change paired on (case, repeat): new − base with its Newcombe interval and the discordant attempts', () => {
    const next = run(
      'next',
      cases(30, (caseId, i) => [
        attemptScores({ caseId, scores: { solved: i !== 7 && i !== 8, interrupt_latency: 1500 } }),
      ]),
    );
    const solved = compareSummaries(base, next).variants[0]?.rates.find((rate) => rate.name === 'solved');
    expect(solved).toMatchObject({ over: 'all', paired: { pairs: 30, baseOnly: 2, newOnly: 0 } });
    expect(solved?.paired?.difference).toBeCloseTo(-2 / 30, 12);
    expect(solved?.paired?.p).toBeCloseTo(0.5, 12);
    const text = renderComparisonText(compareSummaries(base, next));
    expect(text).toMatch(
      /solved \(all\)\s+30\/30 100%\s+→ 28\/30 93%\s+-7 pt\s+paired −7 pt \[−\d+, \+\d+\], 2 base only \/ 0 new only, p 0\.500/,
    );
    expect(text).toMatch(/fixed \(hangs\)/);
    // latency 1200 ms in base, 1500 ms in every new attempt: the paired median is +300 ms
    expect(text).toMatch(/paired median \+300 ms \[\+300 ms, \+300 ms\] over 30 attempts/);
    expect(renderComparisonMarkdown(compareSummaries(base, next))).toMatch(
      /\| solved \(all\) \| 30\/30 100% \| 28\/30 93% \| -7 pt \| −7 pt \[−\d+, \+\d+\], 2 base only \/ 0 new only, p 0\.500 \|/,
    );
  });

  it('flags a rate whose interval moved wholly below, and a false-kill rate that moved wholly above', () => {
    const good = run('good', [
      ...cases(20, (caseId) => [attemptScores({ caseId })]),
      ...cases(20, (caseId) => [attemptScores({ caseId: `ctl-${caseId}`, kind: 'control' })]),
    ]);
    const bad = run('bad', [
      ...cases(20, (caseId, i) => [attemptScores({ caseId, scores: { solved: i < 5 } })]),
      ...cases(20, (caseId, i) => [
        attemptScores({ caseId: `ctl-${caseId}`, kind: 'control', scores: { solved: i < 5 } }),
      ]),
    ]);
    const rates = compareSummaries(good, bad)
      .regressions.filter((r) => r.kind === 'rate')
      .map((r) => r.message);
    expect(rates.some((m) => m.startsWith('baseline-10s: interrupted 100%'))).toBe(true);
    expect(rates.some((m) => m.includes('false_kill 0%') && m.includes('wholly above'))).toBe(true);
  });

  it('flags interrupt latency up beyond the noise of the repeats, and not a change inside it', () => {
    const latencies = (shift: number, spread: number) =>
      run(
        'r',
        cases(10, (caseId, i) =>
          [0, 1, 2].map((repeat) =>
            attemptScores({
              caseId,
              repeat: repeat + 1,
              scores: { interrupt_latency: 1000 + i * 50 + shift + (repeat - 1) * spread },
            }),
          ),
        ),
      );
    const slower = compareSummaries(latencies(0, 40), latencies(400, 40));
    expect(slower.regressions.map((r) => r.kind)).toEqual(['latency']);
    expect(slower.variants[0]?.latency?.noiseFrom).toBe('repeats');
    const noisy = compareSummaries(latencies(0, 900), latencies(150, 900));
    expect(noisy.regressions).toEqual([]);
    expect(noisy.variants[0]?.latency?.meanDeltaMs).toBeCloseTo(150);
  });

  it('compares two single-variant runs of different names with each other, and refuses runs with no variant in common', () => {
    const other = run(
      'other',
      cases(30, (caseId, i) => [attemptScores({ caseId, variant: 'oracle-10s', scores: { solved: i !== 3 } })]),
    );
    const comparison = compareSummaries(base, other);
    expect(comparison.paired).toBe('oracle-10s (new) against baseline-10s (base)');
    expect(comparison.regressions.map((r) => r.caseId)).toEqual(['case-3']);
    const two = run('two', [
      ...cases(30, (caseId) => [attemptScores({ caseId, variant: 'x' })]),
      ...cases(30, (caseId) => [attemptScores({ caseId, variant: 'y' })]),
    ]);
    expect(() => compareSummaries(base, two)).toThrow(/no variant in common \(base: baseline-10s; new: x, y\)/);
  });

  it('refuses another summary version and another case set unless allowed', () => {
    // A summary of a version this hangbench does not write (a newer one, read without upgrading) is refused.
    expect(() => compareSummaries(base, { ...base, summaryVersion: 5 } as unknown as typeof base)).toThrow(
      /different summary versions \(4 and 5\)/,
    );
    const other = run(
      'other',
      cases(31, (caseId) => [attemptScores({ caseId })]),
    );
    expect(() => compareSummaries(base, other)).toThrow(/only in new: case-30.*--allow-different-cases/);
    const allowed = compareSummaries(base, other, { allowDifferentCases: true });
    expect(allowed.onlyInNew).toEqual(['case-30']);
    expect(allowed.regressions).toEqual([]);
  });
});
