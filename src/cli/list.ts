import path from 'node:path';
import { loadCases } from '../cases/load-cases.js';
import { sourcesLabel } from '../cases/source-label.js';
import { newTable, tableToString } from '../report/index.js';
import { resolveOptions } from '../run/index.js';
import { caseClass } from '../types/case.js';
import { formatCaseProblem } from '../types/errors.js';
import { LIST_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import { listHelp } from './help.js';
import type { CliIO } from './io.js';
import { variantInput } from './variant-input.js';

const ORIGIN_WORDS = {
  given: 'the paths given',
  project: 'cases/ of this folder',
  bundled: 'the library bundled with hangbench (no cases/ here; add one, pass paths or --config to run your own)',
} as const;

/** What `hangbench eval` with the same arguments would run: the cases and where they come from, the variants, the attempts. */
export async function listCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, LIST_FLAGS);
  if (help) {
    io.stdout.write(`${listHelp()}\n`);
    return 0;
  }
  const { config, input } = await variantInput(values, positionals, io);
  const options = resolveOptions({
    ...input,
    repeat: values.repeat ?? config?.repeat,
    runId: 'list',
  });
  const loaded = await loadCases(options.caseInputs, io.cwd);
  const attempts = loaded.cases.length * options.variants.length * options.repeat;
  if (values.json) {
    const cases = loaded.cases.map((testCase) => ({
      id: testCase.id,
      kind: testCase.kind,
      class: caseClass(testCase),
      source: testCase.source,
      file: testCase.file,
    }));
    io.stdout.write(
      `${JSON.stringify({ origin: loaded.origin, cases, variants: options.variants, repeat: options.repeat, attempts, problems: loaded.problems }, null, 2)}\n`,
    );
    return loaded.problems.length > 0 ? 2 : 0;
  }
  const table = newTable(['case', 'kind', 'class', 'source', 'file']);
  for (const testCase of loaded.cases) {
    table.push([
      testCase.id,
      testCase.terminal === 'pty' ? `${testCase.kind} (pty)` : testCase.kind,
      caseClass(testCase),
      sourcesLabel(testCase.source),
      path.relative(io.cwd, testCase.file),
    ]);
  }
  io.stdout.write(`cases: ${ORIGIN_WORDS[loaded.origin]}\n${tableToString(table)}\n`);
  for (const problem of loaded.problems) io.stdout.write(`✗ ${formatCaseProblem(problem)}\n`);
  io.stdout.write(
    `variants: ${options.variants.map((variant) => variant.name).join(', ')}${options.config === undefined ? '' : ` (from ${options.config})`}\n`,
  );
  io.stdout.write(
    `${loaded.cases.length} case(s) × ${options.variants.length} variant(s) × ${options.repeat} repeat(s) = ${attempts} attempt(s)\n`,
  );
  return loaded.problems.length > 0 ? 2 : 0;
}
