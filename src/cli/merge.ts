import path from 'node:path';
import { mergeRuns } from '../report/index.js';
import { HangbenchError } from '../types/errors.js';
import { MERGE_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import type { CliIO } from './io.js';
import { mergeHelp } from './reports-help.js';

export async function mergeCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, MERGE_FLAGS);
  if (help) {
    io.stdout.write(`${mergeHelp()}\n`);
    return 0;
  }
  const { out } = values;
  if (out === undefined) throw new HangbenchError('USAGE', 'merge needs --out <dir>, the folder of the merged run');
  if (positionals.length === 0)
    throw new HangbenchError(
      'USAGE',
      'merge takes the shard run folders, e.g. hangbench merge results/shard-1 results/shard-2 --out results/merged',
    );
  const result = await mergeRuns(
    positionals.map((dir) => path.resolve(io.cwd, dir)),
    path.resolve(io.cwd, out),
  );
  const { attempts, solved, errors } = result.summary.totals;
  io.stderr.write(
    `merged ${result.shards.length} shard(s): ${attempts} attempts · ${solved} solved · ${errors} errors\n`,
  );
  io.stdout.write(`${result.outDir}\n`);
  return 0;
}
