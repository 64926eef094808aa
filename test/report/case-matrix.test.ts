import { describe, expect, it } from 'vitest';
import { summarizeCaseMatrix } from '../../src/summary/case-matrix.js';
import { renderCaseMatrix } from '../../src/report/terminal/case-matrix-table.js';
import { summarize } from '../../src/summary/summarize.js';
import { META } from './attempt-fixtures.js';
import { A, B, CONTROL_B, CONTROLS } from './variant-fixtures.js';

const lineOf = (text: string, needle: string): string => text.split('\n').find((line) => line.startsWith(needle)) ?? '';

describe('summarizeCaseMatrix', () => {
  const matrix = summarizeCaseMatrix([...A, ...B, ...CONTROLS]);

  it('counts solved out of the repeats per case and variant, hang cases first', () => {
    expect(matrix.map((row) => row.caseId)).toEqual([
      'case-1',
      'case-2',
      'case-3',
      'case-4',
      'case-5',
      'case-6',
      'quiet-compute',
    ]);
    // case-2 is slots 2 and 3: A solved slot 2 only, B slot 3 only
    expect(matrix[1]).toEqual({
      caseId: 'case-2',
      class: 'pipe-write-block',
      kind: 'hang',
      cells: { 'baseline·interval-2s': { solved: 1, total: 2 }, 'baseline·no-output-2s': { solved: 1, total: 2 } },
    });
    expect(matrix[6]).toMatchObject({
      kind: 'control',
      cells: { 'baseline·interval-2s': { solved: 2, total: 2 }, 'baseline·no-output-2s': { solved: 1, total: 2 } },
    });
  });

  it('leaves out the cells of a variant that never ran the case', () => {
    const partial = summarizeCaseMatrix([...A, CONTROL_B]);
    expect(partial.at(-1)?.cells).toEqual({ 'baseline·no-output-2s': { solved: 0, total: 1 } });
  });
});

describe('renderCaseMatrix', () => {
  const summary = summarize([...A, ...B, ...CONTROLS], META);

  it('has one row per case and one column per variant, solved out of k', () => {
    const text = renderCaseMatrix(summary, { color: false });
    expect(text.split('\n')[0]).toMatch(/^case\s+kind\s+baseline·interval-2s\s+baseline·no-output-2s$/);
    expect(lineOf(text, 'case-1 ')).toMatch(/^case-1\s+hang\s+2\/2\s+2\/2$/);
    // case-6 is slots 10 and 11: only B solved slot 10
    expect(lineOf(text, 'case-6 ')).toMatch(/^case-6\s+hang\s+0\/2\s+1\/2$/);
    expect(lineOf(text, 'quiet-compute')).toMatch(/^quiet-compute\s+control\s+2\/2\s+1\/2$/);
  });

  it('colours all solved green, none red, some yellow, and shows – for a case a variant did not run', () => {
    const coloured = renderCaseMatrix(summary, { color: true });
    expect(coloured).toContain('\u001b[32m2/2\u001b[0m');
    expect(coloured).toContain('\u001b[31m0/2\u001b[0m');
    expect(coloured).toContain('\u001b[33m1/2\u001b[0m');
    const partial = summarize([...A, CONTROL_B], META);
    expect(lineOf(renderCaseMatrix(partial), 'case-1 ')).toMatch(/^case-1\s+hang\s+2\/2\s+–$/);
  });
});
