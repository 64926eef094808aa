import { paint, shouldUseColor } from '../report/index.js';
import { newTable, tableToString } from '../report/index.js';
import {
  CHECK_NAMES,
  checkCases,
  type CaseSoundness,
  type CheckCasesResult,
  type CheckName,
} from '../check/check-cases.js';
import { formatDuration } from '../types/duration.js';
import { formatCaseProblem } from '../types/errors.js';
import { CHECK_CASES_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import { checkCasesHelp } from './help.js';
import { checkIsolation } from './isolation.js';
import type { CliIO } from './io.js';

const HEADINGS: Record<CheckName, string> = {
  repro: 'repro',
  verifyUntouched: 'verify untouched',
  verifyPatched: 'verify patched',
  gates: 'gates',
  oracle: 'oracle',
  nop: 'nop',
};
/** A passing cell keeps its reason short; a failing one is shown in full under the table. */
const CELL_CHARS = 34;

export async function checkCasesCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, CHECK_CASES_FLAGS);
  if (help) {
    io.stdout.write(`${checkCasesHelp()}\n`);
    return 0;
  }
  const refused = await checkIsolation(values.isolation, io, 'check-cases');
  if (refused !== null) return refused;
  const json = values.json === true;
  const progressColor = shouldUseColor(io.stderr, io.env);
  const result = await checkCases(
    {
      caseInputs: positionals,
      timeScale: values['time-scale'],
      concurrency: values.concurrency,
      out: values.out,
      runId: values['run-id'],
      cwd: io.cwd,
    },
    { shutdown: io.shutdown, onCase: (check) => io.stderr.write(`${progressLine(check, progressColor)}\n`) },
  );
  for (const problem of result.problems) io.stderr.write(`invalid case: ${formatCaseProblem(problem)}\n`);
  if (json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else io.stdout.write(`${renderCheckCases(result, shouldUseColor(io.stdout, io.env))}\n`);
  if (result.interrupted) return 130;
  return result.sound ? 0 : 2;
}

function progressLine(check: CaseSoundness, color: boolean): string {
  const mark = check.sound ? paint('✓', 'green', color) : paint('✗', 'red', color);
  return `${mark} ${check.caseId} ${check.sound ? 'sound' : 'UNSOUND'} ${formatDuration(check.wallMs)}`;
}

/** The table of every case and check, then each failed check in full, then one verdict line. */
export function renderCheckCases(result: CheckCasesResult, color: boolean): string {
  const table = newTable(
    ['case', 'kind', 'class', ...CHECK_NAMES.map((name) => HEADINGS[name])].map((head) => paint(head, 'bold', color)),
  );
  const failures: string[] = [];
  for (const check of result.cases) {
    const cells = CHECK_NAMES.map((name) => {
      const { ok, reason } = check.checks[name];
      if (ok === false) failures.push(`✗ ${check.caseId} ${HEADINGS[name]}: ${reason}`);
      const mark = ok === null ? paint('–', 'dim', color) : ok ? paint('✓', 'green', color) : paint('✗', 'red', color);
      return `${mark} ${reason.length > CELL_CHARS ? `${reason.slice(0, CELL_CHARS - 1)}…` : reason}`;
    });
    const kind = check.terminal === 'pty' ? `${check.kind} (pty)` : check.kind;
    table.push([check.caseId, kind, check.class, ...cells]);
  }
  const unsound = result.cases.filter((check) => !check.sound).length + result.problems.length;
  const total = result.cases.length + result.problems.length;
  const verdict = result.interrupted
    ? 'interrupted: not every check ran'
    : unsound === 0
      ? paint(`all ${total} case(s) sound`, 'green', color)
      : paint(`${unsound} of ${total} case(s) unsound`, 'red', color);
  const lines = [tableToString(table)];
  if (failures.length > 0) lines.push('', ...failures);
  lines.push('', `${verdict} · time scale ${result.timeScale} · ${formatDuration(result.wallMs)} · ${result.runDir}`);
  return lines.join('\n');
}
