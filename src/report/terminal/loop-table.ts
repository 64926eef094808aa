import type { LoopSummary } from '../../summary/index.js';
import { DASH, count, duration, fraction, paint, percentWithInterval } from '../format.js';
import { newTable, tableToString } from './table-style.js';

/** The gate pass rate and the hint comparison; '' when no attempt had gates or hints. */
export function renderLoopTable(
  rows: readonly LoopSummary[],
  { color }: { readonly color: boolean } = { color: false },
): string {
  if (rows.length === 0) return '';
  const heads = [
    'agent',
    'variant',
    'gates passed [95% CI]',
    'rounds',
    'hint given',
    'solved after hint',
    'solved, no hint',
    'hint→action p50/p90',
  ];
  const table = newTable(
    heads.map((name) => paint(name, 'bold', color)),
    ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
  for (const row of rows) {
    const { p50, p90 } = row.hintToActionMs;
    table.push([
      row.agent,
      row.variant,
      percentWithInterval(row.gates_passed),
      count(row.gateRoundsPerAttempt),
      fraction(row.hint_given),
      fraction(row.solved_after_hint),
      fraction(row.solved_without_hint),
      p50 === null ? DASH : `${duration(p50)} / ${duration(p90)}`,
    ]);
  }
  return tableToString(table);
}
