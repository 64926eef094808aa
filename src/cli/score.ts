import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readRunMeta } from '../run/index.js';
import { renderAttemptTable, renderClassTable, renderSummaryTable, shouldUseColor } from '../report/index.js';
import { renderLoopTable } from '../report/index.js';
import { summarize, summarizeLoop } from '../summary/index.js';
import { readTrace, scoreAttempt } from '../scorers/index.js';
import { HangbenchError } from '../types/errors.js';
import type { AttemptScores } from '../types/scores.js';
import { SCORE_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import { scoreHelp } from './help.js';
import type { CliIO } from './io.js';
import { RUN_FILES } from '../types/run-files.js';

export async function scoreCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, SCORE_FLAGS);
  if (help) {
    io.stdout.write(`${scoreHelp()}\n`);
    return 0;
  }
  const runDir = positionals[0];
  if (runDir === undefined || positionals.length > 1)
    throw new HangbenchError('USAGE', 'score takes exactly one run folder, e.g. hangbench score results/<run-id>');
  const root = path.resolve(io.cwd, runDir);
  const traces = (
    await readdir(root, { recursive: true }).catch(() => {
      throw new HangbenchError('RUN_FOLDER', `${root} is not a readable folder`);
    })
  )
    .filter((file) => path.basename(file) === RUN_FILES.trace)
    .sort();
  if (traces.length === 0)
    throw new HangbenchError('RUN_FOLDER', `no trace.jsonl under ${root}; pass a run folder such as results/<run-id>`);

  const attempts: AttemptScores[] = [];
  const disagreements: string[] = [];
  for (const trace of traces) {
    const file = path.join(root, trace);
    const scores = scoreAttempt(await readTrace(file));
    attempts.push(scores);
    const recorded = await readFile(path.join(path.dirname(file), RUN_FILES.score), 'utf8').then(
      (text) => JSON.parse(text) as AttemptScores,
      () => null,
    );
    if (recorded !== null && JSON.stringify(recorded.scores) !== JSON.stringify(scores.scores))
      disagreements.push(path.dirname(trace));
  }
  const meta = await readRunMeta(root);
  const summary = summarize(attempts, { runId: meta.runId, startedAt: meta.startedAt, seed: meta.options.seed });
  const loop = summarizeLoop(attempts);
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ ...summary, loop, disagreements }, null, 2)}\n`);
  } else {
    const color = shouldUseColor(io.stdout, io.env);
    io.stdout.write(
      `${renderAttemptTable(summary.attempts, { color })}\n\n${renderSummaryTable(summary, { color })}\n\n${renderClassTable(summary, { color })}\n`,
    );
    const loopTable = renderLoopTable(loop, { color });
    if (loopTable !== '') io.stdout.write(`\n${loopTable}\n`);
    io.stdout.write(
      disagreements.length === 0
        ? `\nrescored ${attempts.length} attempt(s) from their traces: every recorded score.json agrees\n`
        : `\nrescored ${attempts.length} attempt(s); these differ from their recorded score.json:\n${disagreements.map((dir) => `  ${dir}`).join('\n')}\n`,
    );
  }
  return disagreements.length === 0 ? 0 : 1;
}
