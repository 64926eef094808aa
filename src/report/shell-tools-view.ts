import type { ShellToolRow } from '../summary/index.js';
import { formatDuration } from '../types/duration.js';

/** The "Shell tools" section's cells, shared by the terminal table, report.md and report.html: one row per CLI × class. */

export const SHELL_TOOL_HEADS = [
  'CLI',
  'class',
  'mode',
  'n',
  'tool returned (p50)',
  'how the tool ended it',
  'left after tool',
  'left after exit',
  'CLI exit',
  'held output',
  'reason given',
  'hang tax',
  'hang tax tokens',
] as const;

const DASH = '–';
const known = (value: number | null): string => (value === null ? DASH : String(value));

/** `returned-running 2, killed-tree 1` */
export function endsText(ends: ShellToolRow['ends']): string {
  const parts = Object.entries(ends).map(([end, n]) => `${end} ${n}`);
  return parts.length === 0 ? DASH : parts.join(', ');
}

/** `exited 2, ended 1 (after 30s)`: ended ones were still running the grace after their final answer. */
export function agentExitText(row: ShellToolRow): string {
  const parts = Object.entries(row.agentExit).map(([how, n]) => `${how} ${n}`);
  if (parts.length === 0) return DASH;
  const after = row.agentExitMsMax === null ? '' : ` (after ${formatDuration(row.agentExitMsMax)})`;
  return `${parts.join(', ')}${row.agentExit.ended ? after : ''}`;
}

/** The rows an installed CLI produced: the section shows what a CLI's own tool did, so other agents' hang tax stays in summary.json. */
export function shellToolRows(rows: readonly ShellToolRow[] | undefined): readonly ShellToolRow[] {
  return (rows ?? []).filter((row) => row.installed);
}

export function shellToolCells(row: ShellToolRow): string[] {
  return [
    row.cli,
    row.class,
    row.mode ?? DASH,
    String(row.attempts),
    `${row.returned}/${row.attempts}${row.toolReturnMs.p50 === null ? '' : ` (${formatDuration(row.toolReturnMs.p50)})`}`,
    endsText(row.ends),
    known(row.leftAfterTool),
    known(row.leftAfterExit),
    agentExitText(row),
    row.returned === 0 ? DASH : `${row.heldOutput}/${row.returned}`,
    row.reasons.length === 0 ? DASH : row.reasons.join(', '),
    row.hangTaxMs === null ? DASH : formatDuration(row.hangTaxMs),
    known(row.hangTaxTokens),
  ];
}

/** Said under the table: what the columns count, and that modes of one CLI sit side by side. */
export const SHELL_TOOL_NOTE =
  "Per CLI and hang class, summed over attempts: when the repro's tool result reached the model (a model request that carried it), how the CLI's own shell tool had ended the command by then, the repro's processes alive then and when the CLI exited, how the CLI's process ended (exited by itself; ended by the harness because it had not exited the grace after its final answer; stopped with the attempt), and the wall time and model tokens between the onset and the end of the hang. Rows of one CLI in modes none and inband follow each other.";
