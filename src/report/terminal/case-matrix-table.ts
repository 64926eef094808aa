import { DASH, paint } from '../format.js';
import type { RunSummary } from '../../summary/index.js';
import { newTable, tableToString } from './table-style.js';
import type { RenderOptions } from './table.js';

/** Case ↓ × variant →: solved out of the repeats it ran; all green, none red, some yellow, – not run. */
export function renderCaseMatrix(
  summary: Pick<RunSummary, 'groups' | 'caseMatrix'>,
  { color }: RenderOptions = { color: false },
): string {
  const variants = summary.groups.map((group) => group.variant);
  const table = newTable(
    ['case', 'kind', ...variants].map((head) => paint(head, 'bold', color)),
    ['left', 'left', ...variants.map(() => 'right' as const)],
  );
  for (const row of summary.caseMatrix) {
    table.push([
      row.caseId,
      row.kind,
      ...variants.map((variant) => {
        const cell = row.cells[variant];
        if (!cell) return paint(DASH, 'dim', color);
        const style = cell.solved === cell.total ? 'green' : cell.solved === 0 ? 'red' : 'yellow';
        return paint(`${cell.solved}/${cell.total}`, style, color);
      }),
    ]);
  }
  return tableToString(table);
}
