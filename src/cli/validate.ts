import { validateCases } from '../cases/validate.js';
import { formatCaseProblem } from '../types/errors.js';
import { VALIDATE_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import { validateHelp } from './help.js';
import type { CliIO } from './io.js';

export async function validateCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, VALIDATE_FLAGS);
  if (help) {
    io.stdout.write(`${validateHelp()}\n`);
    return 0;
  }
  const report = await validateCases(positionals, io.cwd);
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify({ valid: report.valid.map((testCase) => testCase.id), problems: report.problems }, null, 2)}\n`,
    );
  } else {
    for (const problem of report.problems) io.stdout.write(`✗ ${formatCaseProblem(problem)}\n`);
    io.stdout.write(
      `${report.valid.length} valid case(s), ${report.problems.length} problem(s) in ${report.checkedFiles} file(s)\n`,
    );
  }
  return report.problems.length > 0 ? 2 : 0;
}
