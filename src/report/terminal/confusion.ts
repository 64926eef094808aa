import { CLASSIFICATIONS, looksHung, type Classification } from '../../types/process.js';
import { DASH, fraction, paint, percentWithInterval } from '../format.js';
import type { Confusion } from '../../summary/index.js';
import { newTable, tableToString } from './table-style.js';
import type { RenderOptions } from './table.js';

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
      const falseKills =
        matrix.falseKills.total === 0
          ? DASH
          : `${fraction(matrix.falseKills)} (${percentWithInterval(matrix.falseKills)})`;
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
