import type { StdinWiringRow } from '../summary/index.js';
import { STDIN_WIRINGS, type StdinWiring } from '../types/terminal.js';
import { newTable, tableToString } from './terminal/table-style.js';
import { paint } from './format.js';

export const STDIN_WIRING_NOTE =
  "Each case with its commands' stdin an open pipe, /dev/null or a pty (--stdin): how often the hang showed (repro), " +
  'the agent killed it (killed) and the hidden checks passed (fixed). A prompt that hangs on a pipe exits on /dev/null, ' +
  'so there is nothing to kill; "fixed 0" there means the hidden checks still caught it (a default taken is not a fix).';

/** The wirings a run's rows have, in the axis order. */
export function wiringsOf(rows: readonly StdinWiringRow[]): StdinWiring[] {
  return STDIN_WIRINGS.filter((stdin) => rows.some((row) => row.cells.some((cell) => cell.stdin === stdin)));
}

/** `repro 1/1 · killed 0/1 · fixed 0/1`; a control shows whether the attempt was solved. */
export function wiringCell(row: StdinWiringRow, stdin: StdinWiring): string {
  const cell = row.cells.find((candidate) => candidate.stdin === stdin);
  if (cell === undefined) return '–';
  const of = (count: number) => `${count}/${cell.attempts}`;
  if (row.kind === 'control') return `solved ${of(cell.solved)}`;
  return `repro ${of(cell.reproduced)} · killed ${of(cell.interrupted)} · fixed ${of(cell.fixed)}`;
}

/** Heads and cells of the wiring table: case, kind, one column per wiring. */
export function wiringTable(rows: readonly StdinWiringRow[]): { heads: string[]; cells: string[][] } {
  const wirings = wiringsOf(rows);
  return {
    heads: ['case', 'kind', ...wirings.map((stdin) => `stdin ${stdin}`)],
    cells: rows.map((row) => [row.caseId, row.kind, ...wirings.map((stdin) => wiringCell(row, stdin))]),
  };
}

/** The "stdin wiring" section in the terminal; '' when the run tried fewer than two wirings. */
export function renderStdinWiringTable(
  rows: readonly StdinWiringRow[] | undefined,
  { color }: { readonly color: boolean } = { color: false },
): string {
  if (rows === undefined || rows.length === 0) return '';
  const { heads, cells } = wiringTable(rows);
  const table = newTable(
    heads.map((name) => paint(name, 'bold', color)),
    heads.map(() => 'left'),
  );
  for (const row of cells) table.push(row);
  return `${paint('stdin wiring', 'bold', color)}\n${tableToString(table)}`;
}
