import type { ShellToolRow } from '../../summary/index.js';
import { paint } from '../format.js';
import { SHELL_TOOL_HEADS, shellToolCells, shellToolRows } from '../shell-tools-view.js';
import { newTable, tableToString } from './table-style.js';

/** The "Shell tools" section in the terminal; '' when no installed CLI ran a repro. */
export function renderShellToolsTable(
  rows: readonly ShellToolRow[] | undefined,
  { color }: { readonly color: boolean } = { color: false },
): string {
  const shown = shellToolRows(rows);
  if (shown.length === 0) return '';
  const table = newTable(
    SHELL_TOOL_HEADS.map((name) => paint(name, 'bold', color)),
    SHELL_TOOL_HEADS.map((_, index) => (index < 3 || index === 5 || index === 9 ? 'left' : 'right')),
  );
  for (const row of shown) table.push(shellToolCells(row));
  return `${paint('Shell tools', 'bold', color)}\n${tableToString(table)}`;
}
