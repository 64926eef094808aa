import { describe, expect, it } from 'vitest';
import { bestOf, renderComparisonTable } from '../../src/report/terminal/comparison-table.js';
import { pValue, renderPairwiseTable } from '../../src/report/terminal/pairwise-table.js';
import { summarize } from '../../src/summary/summarize.js';
import { META } from './attempt-fixtures.js';
import { A, B, C, CONTROLS } from './variant-fixtures.js';

const ESC = '\u001b[';
const lineOf = (text: string, needle: string): string => text.split('\n').find((line) => line.startsWith(needle)) ?? '';

describe('renderComparisonTable', () => {
  const summary = summarize([...A, ...B, ...CONTROLS], META);
  const text = renderComparisonTable(summary, { color: false });

  it('has one column per variant and one row per metric', () => {
    expect(text.split('\n')[0]).toMatch(/^metric\s+baseline·interval-2s\s+baseline·no-output-2s$/);
    const labels = text
      .split('\n')
      .slice(2, -1)
      .map((line) => line.split(/\s{2,}/)[0]);
    expect(labels).toEqual([
      'attempts',
      'solved (all)',
      'pass@2',
      'pass^2',
      'reproduced (hangs)',
      'interrupted (hangs)',
      'latency p50',
      'latency p90',
      'false kills (controls)',
      'completed (controls)',
      'fixed (hangs)',
      'intact (controls)',
      'ticks / attempt',
      'tokens / tick',
      'tokens / attempt',
      'wall / attempt',
      'errors',
    ]);
  });

  it('shows rates with their Wilson interval and latency with its bootstrap interval, and marks the best', () => {
    // A solved 5 of 14 (Wilson 16–61 %), B 11 of 14 (52–92 %)
    expect(lineOf(text, 'solved')).toMatch(/^solved \(all\)\s+5\/14 36% \[16–61\]\s+11\/14 79% \[52–92\] \*$/);
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
    const once = summarize(
      [...A, ...B].filter((attempt) => attempt.repeat === 1),
      META,
    );
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

/** The lines of one metric's table: from its title to the note under it. */
function familyBlock(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  if (start < 0) throw new Error(`no table titled ${title} in:\n${text}`);
  const end = lines.findIndex((line, index) => index > start && line === '');
  return lines.slice(start, end < 0 ? undefined : end);
}

describe('renderPairwiseTable', () => {
  it('gives one table per metric, each with the effect a − b, its interval, the test and the better variant', () => {
    const text = renderPairwiseTable(summarize([...A, ...B, ...CONTROLS], META), { color: false });
    expect(
      text.split('\n').filter((line) => /^[a-z].*\((hangs|controls|all attempts|hangs both interrupted)\)$/.test(line)),
    ).toEqual([
      'interrupted (hangs)',
      'false kills (controls)',
      'interrupt latency (hangs both interrupted)',
      'solved (all attempts)',
      'fixed (hangs)',
      'tokens per attempt (all attempts)',
    ]);
    const interrupted = familyBlock(text, 'interrupted (hangs)');
    expect(interrupted[1]).toMatch(/^a\s+b\s+pairs\s+only a\/b\s+a − b \[95% CI\]\s+McNemar p\s+better$/);
    expect(interrupted[1]).not.toContain('Holm');
    // discordant 1 and 8 over 12 hang pairs: −58 pt, Newcombe [−79, −21], p = 0.039: the second variant interrupts more
    expect(interrupted[3]).toMatch(
      /^baseline·interval-2s\s+baseline·no-output-2s\s+12\s+1\/8\s+−58 pt \[−\d+, −\d+\]\s+0\.039\s+baseline·no-output-2s$/,
    );
    expect(interrupted.at(-1)).toBe(
      'higher is better · a − b: difference of the rates, 95 % Newcombe interval · McNemar exact on the discordant pairs · no difference ≥ x: the smallest this run could have shown, at 80 % power and α 0.05 over the rows',
    );
    // Hollander & Wolfe latencies: median a − b +490ms, V = 40, p = 0.039: the second is faster
    const latency = familyBlock(text, 'interrupt latency (hangs both interrupted)');
    expect(latency[3]).toMatch(
      /^baseline·interval-2s\s+baseline·no-output-2s\s+9\s+40\s+\+490ms \[[−+]?[\d.]+m?s, \+[\d.]+m?s\]\s+0\.039\s+baseline·no-output-2s$/,
    );
    // one false kill of two: nowhere near a difference
    expect(familyBlock(text, 'false kills (controls)')[3]).toMatch(
      /2\s+0\/1\s+−50 pt \[−\d+, \+\d+\]\s+1\.000\s+no difference (≥ [^|]+ )?shown( \(too few pairs to show any\))?$/,
    );
    expect(text).toContain('one pair of variants: no correction');
  });

  it('adds Holm-adjusted p-values with three variants and names a better variant only after correction', () => {
    const text = renderPairwiseTable(summarize([...A, ...B, ...C], META), { color: false });
    const solved = familyBlock(text, 'solved (all attempts)');
    expect(solved[1]).toContain('McNemar p (Holm)');
    expect(solved.find((line) => line.startsWith('baseline·interval-2s   baseline·no-output-2s'))).toMatch(
      /12\s+1\/8\s+−58 pt \[[^\]]+\]\s+0\.039 \(0\.117\)\s+no difference ≥ 72 pt shown$/,
    );
    expect(solved.find((line) => line.startsWith('baseline·interval-2s   baseline·timeout-5s'))).toMatch(
      /0\/0\s+0 pt \[−\d+, \+\d+\]\s+1\.000 \(1\.000\)\s+no difference (≥ [^|]+ )?shown( \(too few pairs to show any\))?$/,
    );
    const latency = familyBlock(text, 'interrupt latency (hangs both interrupted)');
    expect(latency.find((line) => line.startsWith('baseline·no-output-2s'))).toMatch(
      /9\s+6\s+−490ms \[[^\]]+\]\s+0\.055 \(0\.117\)\s+no difference (≥ [^|]+ )?shown( \(too few pairs to show any\))?$/,
    );
    expect(text).toContain('(Holm): corrected over the 3 pairs of variants within each metric');
  });

  it('leaves out a metric no pair has data for, and is empty for a single variant', () => {
    const silent = B.map((attempt) => ({ ...attempt, scores: { ...attempt.scores, interrupt_latency: null } }));
    const text = renderPairwiseTable(summarize([...A, ...silent], META), { color: false });
    expect(text).not.toContain('interrupt latency');
    // hangs only: no control pairs, so no false-kill table either
    expect(text).not.toContain('false kills');
    expect(text).toContain('interrupted (hangs)');
    expect(renderPairwiseTable(summarize(A, META))).toBe('');
  });

  it('formats p-values to three places, tiny ones as <0.001', () => {
    expect(pValue(0.0390625)).toBe('0.039');
    expect(pValue(0.0004)).toBe('<0.001');
    expect(pValue(null)).toBe('–');
  });
});
