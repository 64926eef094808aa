import { describe, expect, it } from 'vitest';
import { renderLoopTable } from '../../src/report/terminal/loop-table.js';
import { summarizeLoop } from '../../src/summary/loop.js';
import { LoopSummarySchema } from '../../src/summary/schema.js';
import { controlAttempt, hangAttempt } from '../report/attempt-fixtures.js';

const gated = { gates_passed: true, gate_rounds: 1 } as const;
const attempts = [
  hangAttempt({ repeat: 1 }, { ...gated, hint_given: true, hint_to_action: 4000 }),
  hangAttempt(
    { repeat: 2 },
    { gates_passed: false, gate_rounds: 3, solved: false, hint_given: true, hint_to_action: 2000 },
  ),
  hangAttempt({ repeat: 3 }, { ...gated, hint_given: false, solved: false }),
  controlAttempt({ repeat: 1 }, { hint_given: false }),
  hangAttempt({ caseId: 'no-loop' }),
  hangAttempt({ variant: 'hints-off' }, { hint_given: false, solved: false }),
];

describe('summarizeLoop', () => {
  const rows = summarizeLoop(attempts);
  const [on, off] = rows;

  it('has one row per agent/variant that ran a gated or hinted case; attempts of other cases are left out', () => {
    expect(rows.map((row) => row.variant)).toEqual(['interval-10s', 'hints-off']);
    for (const row of rows) expect(LoopSummarySchema.parse(row)).toEqual(row);
  });

  it('gives the gate pass rate over gated attempts only, and rounds per gated attempt', () => {
    expect(on?.gates_passed).toMatchObject({ count: 2, total: 3 });
    expect(on?.gateRoundsPerAttempt).toBeCloseTo(5 / 3, 6);
    expect(off?.gates_passed).toMatchObject({ count: 0, total: 0, rate: null });
  });

  it('splits solved between hinted-case attempts where a hint fired and where none did', () => {
    expect(on?.hint_given).toMatchObject({ count: 2, total: 4 });
    expect(on?.solved_after_hint).toMatchObject({ count: 1, total: 2 });
    expect(on?.solved_without_hint).toMatchObject({ count: 1, total: 2 });
    expect(off?.solved_without_hint).toMatchObject({ count: 0, total: 1 });
    expect(on?.hintToActionMs).toEqual({ count: 2, p50: 2000, p90: 4000 });
  });

  it('renders a table with the pass rate and its interval, and nothing when no case had gates or hints', () => {
    const table = renderLoopTable(rows);
    expect(table).toMatch(/gates passed \[95% CI\]/);
    expect(table).toMatch(/interval-10s .* 67% \[21–94\] .* 1\.7 .* 2\/4 .* 1\/2 .* 1\/2 .* 2s \/ 4s/);
    expect(renderLoopTable(summarizeLoop([hangAttempt()]))).toBe('');
  });
});
