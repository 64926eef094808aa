import path from 'node:path';
import { REPORT_FILES, rederiveRun, writeRunReports } from '../report/index.js';
import { HangbenchError } from '../types/errors.js';
import { REPORT_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import type { CliIO } from './io.js';
import { reportHelp } from './reports-help.js';

export async function reportCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, REPORT_FLAGS);
  if (help) {
    io.stdout.write(`${reportHelp()}\n`);
    return 0;
  }
  const [runDir, ...extra] = positionals;
  if (runDir === undefined || extra.length > 0)
    throw new HangbenchError('USAGE', 'report takes exactly one run folder, e.g. hangbench report results/<run-id>');
  const root = path.resolve(io.cwd, runDir);
  const started = performance.now();
  if (values['no-rescore'] !== true) {
    const { summary, unfinished } = await rederiveRun(root);
    io.stderr.write(
      `rescored ${summary.attempts.length} attempt(s) from their traces${unfinished.length > 0 ? `; ${unfinished.length} never finished and are left out` : ''}\n`,
    );
  }
  const report = await writeRunReports(root);
  const ms = Math.round(performance.now() - started);
  io.stderr.write(`rendered ${report.attempts.length} attempt(s) in ${ms} ms\n`);
  for (const file of REPORT_FILES) io.stdout.write(`${path.join(root, file)}\n`);
  return 0;
}
