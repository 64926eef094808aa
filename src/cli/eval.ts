import {
  createReporters,
  fanOut,
  isLive,
  renderAttemptTable,
  renderClassTable,
  renderConfusion,
  renderSummaryTable,
  shouldUseColor,
} from '../report/index.js';
import { runEval } from '../runner/run-eval.js';
import { parseShard } from '../runner/shard.js';
import { formatCaseProblem } from '../types/errors.js';
import { durationFlag, numberFlag, parse, rateFlag } from './args.js';
import { EVAL_HELP } from './help.js';
import type { CliIO } from './io.js';

export async function evalCommand(args: readonly string[], io: CliIO): Promise<number> {
  const parsed = parse(args, {
    agent: { type: 'string' },
    interval: { type: 'string' },
    'time-scale': { type: 'string' },
    concurrency: { type: 'string' },
    repeat: { type: 'string' },
    out: { type: 'string' },
    'run-id': { type: 'string' },
    'hung-ticks': { type: 'string' },
    'max-turns': { type: 'string' },
    'fail-under': { type: 'string' },
    json: { type: 'boolean' },
    resume: { type: 'string' },
    model: { type: 'string' },
    'base-url': { type: 'string' },
    prompt: { type: 'string' },
    cache: { type: 'string' },
    from: { type: 'string' },
    cmd: { type: 'string' },
    shard: { type: 'string' },
  });
  if (parsed.help) {
    io.stdout.write(`${EVAL_HELP}\n`);
    return 0;
  }
  const failUnder = rateFlag('fail-under', parsed.string('fail-under'));
  const json = parsed.flag('json');
  const color = !json && shouldUseColor(io.stdout, io.env);
  const reporters = createReporters(['progress'], { stream: io.stderr, live: isLive(io.stderr, io.env), color: shouldUseColor(io.stderr, io.env) });
  const reporter = fanOut(reporters, (failure) => io.stderr.write(`reporter ${failure.reporter} failed in ${failure.hook}: ${String(failure.error)}\n`));
  const agent = parsed.string('agent');
  if (agent === undefined && parsed.string('resume') === undefined) io.stderr.write('agent: baseline (offline, kills on the monitor\'s classification; never fixes). Other agents: --agent oracle | nop | openai | replay | exec; see --help.\n');

  const result = await runEval(
    {
      caseInputs: parsed.positionals,
      agent,
      intervalMs: durationFlag('interval', parsed.string('interval')),
      timeScale: numberFlag('time-scale', parsed.string('time-scale')),
      concurrency: numberFlag('concurrency', parsed.string('concurrency'), { integer: true }),
      repeat: numberFlag('repeat', parsed.string('repeat'), { integer: true }),
      out: parsed.string('out'),
      runId: parsed.string('run-id'),
      hungTicks: numberFlag('hung-ticks', parsed.string('hung-ticks'), { integer: true }),
      maxTurns: numberFlag('max-turns', parsed.string('max-turns'), { integer: true }),
      model: parsed.string('model'),
      baseUrl: parsed.string('base-url'),
      prompt: parsed.string('prompt'),
      cache: parsed.string('cache'),
      from: parsed.string('from'),
      cmd: parsed.string('cmd'),
      cwd: io.cwd,
      resume: parsed.string('resume'),
      shard: parsed.string('shard') === undefined ? undefined : parseShard(parsed.string('shard') ?? ''),
    },
    { reporter, shutdown: io.shutdown },
  );

  for (const problem of result.problems) io.stderr.write(`invalid case: ${formatCaseProblem(problem)}\n`);
  if (json) {
    io.stdout.write(`${JSON.stringify({ ...result.summary, runDir: result.runDir, problems: result.problems, interrupted: result.interrupted }, null, 2)}\n`);
  } else {
    io.stdout.write(`${renderAttemptTable(result.summary.attempts, { color })}\n\n`);
    io.stdout.write(`${renderSummaryTable(result.summary, { color })}\n\n`);
    io.stdout.write(`${renderClassTable(result.summary, { color })}\n`);
    // The monitor's confusion matrix, when a classification was seen at all (a nop run never ticks).
    const confusion = (result.summary.confusion ?? []).filter((matrix) => matrix.columns.some((column) => column !== 'none'));
    if (confusion.length > 0) io.stdout.write(`\n${renderConfusion(confusion, { color })}\n`);
    io.stdout.write(`\nresults: ${result.runDir}\n`);
  }
  if (result.interrupted) return 130;
  if (result.problems.length > 0) return 2;
  const { attempts, solved } = result.summary.totals;
  if (failUnder !== undefined && (attempts === 0 || solved / attempts < failUnder)) {
    io.stderr.write(`solved ${solved}/${attempts} is under --fail-under ${failUnder}\n`);
    return 3;
  }
  return 0;
}
