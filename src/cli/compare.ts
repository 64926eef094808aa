import { stat } from 'node:fs/promises';
import path from 'node:path';
import { compareSummaries } from '../report/index.js';
import { renderComparisonMarkdown, renderComparisonText } from '../report/index.js';
import { readSummaryFile } from '../report/index.js';
import type { ReportSummary } from '../report/index.js';
import { HangbenchError } from '../types/errors.js';
import { COMPARE_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import type { CliIO } from './io.js';
import { compareHelp } from './reports-help.js';

/** The exit code of a comparison that found a regression. */
const REGRESSION_EXIT = 4;

async function summaryAt(io: CliIO, given: string): Promise<ReportSummary> {
  const target = path.resolve(io.cwd, given);
  const info = await stat(target).catch(() => null);
  if (info === null)
    throw new HangbenchError('RUN_FOLDER', `${target} does not exist; pass a run folder or its summary.json`);
  const runDir = info.isDirectory() ? target : path.dirname(target);
  const summary = await readSummaryFile(runDir);
  if (summary === null)
    throw new HangbenchError(
      'RUN_FOLDER',
      `${runDir} has no summary.json; run \`hangbench report ${given}\` to derive it from the traces`,
    );
  return summary;
}

export async function compareCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, COMPARE_FLAGS);
  if (help) {
    io.stdout.write(`${compareHelp()}\n`);
    return 0;
  }
  const [base, next, ...extra] = positionals;
  if (base === undefined || next === undefined || extra.length > 0)
    throw new HangbenchError('USAGE', 'compare takes two runs: hangbench compare <base-run> <new-run>');
  const comparison = compareSummaries(await summaryAt(io, base), await summaryAt(io, next), {
    allowDifferentCases: values['allow-different-cases'] === true,
  });
  if (values.json) io.stdout.write(`${JSON.stringify(comparison, null, 2)}\n`);
  else io.stdout.write(values.markdown ? renderComparisonMarkdown(comparison) : renderComparisonText(comparison));
  return comparison.regressions.length > 0 ? REGRESSION_EXIT : 0;
}
