import { validateCases } from '../cases/validate.js';
import { formatCaseProblem } from '../types/errors.js';
import { parse } from './args.js';
import { VALIDATE_HELP } from './help.js';
import type { CliIO } from './io.js';

export async function validateCommand(args: readonly string[], io: CliIO): Promise<number> {
  const parsed = parse(args, { json: { type: 'boolean' } });
  if (parsed.help) {
    io.stdout.write(`${VALIDATE_HELP}\n`);
    return 0;
  }
  const report = await validateCases(parsed.positionals, io.cwd);
  if (parsed.flag('json')) {
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
