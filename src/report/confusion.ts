import { CLASSIFICATIONS, looksHung, type Classification } from '../types/process.js';
import type { AttemptScores } from '../types/scores.js';
import { DASH, fraction, paint, percentWithInterval } from './format.js';
import type { Confusion, ConfusionRow } from './summary-schema.js';
import { rate } from './summary.js';
import { newTable, tableToString } from './table-style.js';
import type { RenderOptions } from './table.js';

/** The column of attempts whose command had no tick before the kill or exit (or never ran). */
export const NO_TICK = 'none';

/**
 * How well the monitor's classification tells the cases apart: the true class of each case against the monitor's
 * classification at the agent's kill or the repro's exit (classificationAtEnd), per agent/variant; plus how often a
 * healthy control was killed. A baseline run makes this the monitor's own confusion matrix.
 */
export function summarizeConfusion(attempts: readonly AttemptScores[]): Confusion[] {
  const groups = new Map<string, AttemptScores[]>();
  for (const attempt of attempts) {
    const key = JSON.stringify([attempt.agent, attempt.variant]);
    groups.set(key, [...(groups.get(key) ?? []), attempt]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [AttemptScores];
    const rows = new Map<string, { class: string; kind: AttemptScores['kind']; attempts: number; looksHung: number; counts: Record<string, number> }>();
    for (const attempt of group) {
      const row = rows.get(attempt.class) ?? { class: attempt.class, kind: attempt.kind, attempts: 0, looksHung: 0, counts: {} };
      const column = attempt.classificationAtEnd ?? NO_TICK;
      row.attempts += 1;
      row.counts[column] = (row.counts[column] ?? 0) + 1;
      if (isClassification(column) && looksHung(column)) row.looksHung += 1;
      rows.set(attempt.class, row);
    }
    const seen = new Set(group.map((attempt) => attempt.classificationAtEnd ?? NO_TICK));
    return {
      agent: first.agent,
      variant: first.variant,
      columns: [...CLASSIFICATIONS, NO_TICK].filter((column) => seen.has(column)),
      rows: [...rows.values()].sort(byKindThenClass),
      falseKills: rate(
        group.filter((attempt) => attempt.kind === 'control'),
        'false_kill',
      ),
    };
  });
}

/** One table per agent/variant: case class ↓, classification at the kill or exit →, then the false-kill rate. */
export function renderConfusion(confusion: readonly Confusion[], { color }: RenderOptions = { color: false }): string {
  return confusion
    .map((matrix) => {
      const heads = ['class', 'kind', 'n', ...matrix.columns, 'looks hung'];
      const table = newTable(
        heads.map((head) => paint(head, 'bold', color)),
        heads.map((_, index) => (index < 2 ? 'left' : 'right')),
      );
      for (const row of matrix.rows) {
        const cells = matrix.columns.map((column) => {
          const count = row.counts[column] ?? 0;
          // The cells a good monitor fills: a hang looks hung at the kill, a control does not at its exit.
          const right = isClassification(column) ? looksHung(column) === (row.kind === 'hang') : false;
          return count === 0 ? paint('·', 'dim', color) : paint(String(count), right ? 'green' : 'red', color);
        });
        table.push([row.class, row.kind, String(row.attempts), ...cells, `${row.looksHung}/${row.attempts}`]);
      }
      const falseKills = matrix.falseKills.total === 0 ? DASH : `${fraction(matrix.falseKills)} (${percentWithInterval(matrix.falseKills)})`;
      return [
        `monitor classification at the kill or exit, by case class — ${matrix.agent} ${matrix.variant}`,
        tableToString(table),
        `false kills on controls: ${falseKills}`,
      ].join('\n');
    })
    .join('\n\n');
}

function isClassification(column: string): column is Classification {
  return (CLASSIFICATIONS as readonly string[]).includes(column);
}

function byKindThenClass(a: ConfusionRow, b: ConfusionRow): number {
  if (a.kind !== b.kind) return a.kind === 'hang' ? -1 : 1;
  return a.class < b.class ? -1 : a.class > b.class ? 1 : 0;
}
