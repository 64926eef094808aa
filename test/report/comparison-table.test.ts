import { describe, expect, it } from 'vitest';
import { bestOf, renderComparisonTable } from '../../src/report/comparison-table.js';
import { pValue, renderPairwiseTable } from '../../src/report/pairwise-table.js';
import { summarize } from '../../src/report/summary.js';
import { META } from './attempt-fixtures.js';
import { A, B, C, CONTROLS } from './variant-fixtures.js';

const ESC = '\u001b[';
const lineOf = (text: string, needle: string): string => text.split('\n').find((line) => line.startsWith(needle)) ?? '';

describe('renderComparisonTable', () => {
  const summary = summarize([...A, ...B, ...CONTROLS], META);
  const text = renderComparisonTable(summary, { color: false });

  it('has one column per variant and one row per metric', () => {
    expect(text.split('\n')[0]).toMatch(/^metric\s+baseline·interval-2s\s+baseline·no-output-2s$/);
    const labels = text.split('\n').slice(2, -1).map((line) => line.split(/\s{2,}/)[0]);
    expect(labels).toEqual([
      'attempts', 'solved', 'pass@2', 'pass^2', 'reproduced (hangs)', 'interrupted (hangs)', 'latency p50', 'latency p90',
      'false kills (controls)', 'completed (controls)', 'fixed', 'ticks / attempt', 'tokens / tick', 'tokens / attempt', 'wall / attempt', 'errors',
    ]);
  });

  it('shows rates with their Wilson interval and latency with its bootstrap interval, and marks the best', () => {
    // A solved 5 of 14 (Wilson 16–61 %), B 11 of 14 (52–92 %)
    expect(lineOf(text, 'solved')).toMatch(/^solved\s+5\/14 36% \[16–61\]\s+11\/14 79% \[52–92\] \*$/);
    // pass@2 over 7 cases: A 3/7, B 7/7; pass^2: A 2/7, B 4/7
    expect(lineOf(text, 'pass@2')).toMatch(/^pass@2\s+43%\s+100% \*$/);
    expect(lineOf(text, 'pass^2')).toMatch(/^pass\^2\s+29%\s+57% \*$/);
    expect(lineOf(text, 'latency p50')).toMatch(/^latency p50\s+1\.68s \[[^\]]+\]\s+1\.06s \[[^\]]+\] \*$/);
    // lower is better for false kills: A killed no control
    expect(lineOf(text, 'false kills')).toMatch(/^false kills \(controls\)\s+0\/2 0% \[0–66\] \*\s+1\/2 50% \[9–91\]$/);
    // reproduction is the case's doing, not the variant's: never marked; equal values are not marked either
    expect(lineOf(text, 'reproduced')).not.toContain('*');
    expect(lineOf(text, 'fixed')).not.toContain('*');
    expect(text).toContain('seed 1, 2000 resamples');
    expect(text).not.toContain(ESC);
  });

  it('leaves out pass@k rows when a variant ran a case only once (pass@1 is the solved rate)', () => {
    const once = summarize([...A, ...B].filter((attempt) => attempt.repeat === 1), META);
    expect(renderComparisonTable(once)).not.toMatch(/pass[@^]/);
  });

  it('colours the best when asked', () => {
    expect(renderComparisonTable(summary, { color: true })).toContain(`${ESC}32m11/14 79% [52–92] *${ESC}0m`);
  });

  it('marks every variant tied for best', () => {
    expect([...bestOf([3, 1, 1], 'lower')]).toEqual([1, 2]);
    expect([...bestOf([3, null, 5], 'higher')]).toEqual([2]);
    expect(bestOf([2, 2], 'higher').size).toBe(0);
    expect(bestOf([7, null], 'higher').size).toBe(0);
    expect(bestOf([1, 9], 'none').size).toBe(0);
  });
});

describe('renderPairwiseTable', () => {
  it('gives McNemar and Wilcoxon p-values for two variants, and says which variant a significant test favours', () => {
    const text = renderPairwiseTable(summarize([...A, ...B], META), { color: false });
    const header = text.split('\n')[0] ?? '';
    expect(header).toMatch(/^a\s+b\s+pairs\s+only a\/b\s+McNemar p\s+solves more\s+lat\. pairs\s+a−b p50\s+V\s+method\s+Wilcoxon p\s+faster$/);
    expect(header).not.toContain('Holm');
    // discordant 1 and 8: p = 0.039, B solves more; Hollander & Wolfe latencies: V = 40 exact p = 0.039, B faster
    expect(lineOf(text, 'baseline·interval-2s')).toMatch(/^baseline·interval-2s\s+baseline·no-output-2s\s+12\s+1\/8\s+0\.039\s+b\s+9\s+490ms\s+40\s+exact\s+0\.039\s+b$/);
    expect(text).toContain('one pair of variants: no correction');
  });

  it('adds Holm-adjusted p-values with three variants and calls a difference only after correction', () => {
    const text = renderPairwiseTable(summarize([...A, ...B, ...C], META), { color: false });
    expect(text.split('\n')[0]).toContain('McNemar p (Holm)');
    expect(lineOf(text, 'baseline·interval-2s   baseline·no-output-2s')).toMatch(/12\s+1\/8\s+0\.039 \(0\.117\)\s+–\s+9\s+490ms\s+40\s+exact\s+0\.039 \(0\.117\)\s+–$/);
    expect(lineOf(text, 'baseline·interval-2s   baseline·timeout-5s')).toMatch(/0\/0\s+1\.000 \(1\.000\)\s+–\s+9\s+0ms\s+3\s+normal\s+0\.371 \(0\.371\)\s+–$/);
    expect(lineOf(text, 'baseline·no-output-2s')).toMatch(/8\/1\s+0\.039 \(0\.117\)\s+–\s+9\s+−490ms\s+6\s+exact\s+0\.055 \(0\.117\)\s+–$/);
    expect(text).toContain('(Holm): corrected over the 3 pairs of variants per test');
  });

  it('shows – for a pair without latencies, and nothing for a single variant', () => {
    const silent = B.map((attempt) => ({ ...attempt, scores: { ...attempt.scores, interrupt_latency: null } }));
    const text = renderPairwiseTable(summarize([...A, ...silent], META), { color: false });
    expect(lineOf(text, 'baseline·interval-2s')).toMatch(/0\.039\s+b\s+0\s+–\s+–\s+–\s+–\s+–$/);
    expect(renderPairwiseTable(summarize(A, META))).toBe('');
  });

  it('formats p-values to three places, tiny ones as <0.001', () => {
    expect(pValue(0.0390625)).toBe('0.039');
    expect(pValue(0.0004)).toBe('<0.001');
    expect(pValue(null)).toBe('–');
  });
});
