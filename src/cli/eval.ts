import path from 'node:path';
import { RUN_FILES } from '../types/run-files.js';
import {
  createProgressReporter,
  isLive,
  renderAttemptTable,
  renderClassTable,
  renderCaseMatrix,
  renderComparisonTable,
  renderConfusion,
  renderPairwiseTable,
  renderSummaryTable,
  shouldUseColor,
} from '../report/index.js';
import { renderLoopTable } from '../report/index.js';
import { renderSequential } from '../report/index.js';
import { renderShellToolsTable, renderStdinWiringTable } from '../report/index.js';
import { writeRunReports } from '../report/index.js';
import type { ReporterFailure } from '../run/index.js';
import type { EvalOptionsInput } from '../run/index.js';
import { runEval, type RunHooks, type RunResult } from '../run/index.js';
import { sequentialFlags } from './sequential-flags.js';
import { runSequential } from '../run/index.js';
import { formatCaseProblem } from '../types/errors.js';
import { DEFAULTS } from '../defaults.js';
import { EVAL_FLAGS } from './flags/eval-flags.js';
import type { FlagValues } from './flags/flag.js';
import { parseFlags } from './flags/parse.js';
import { refuseRecorded } from './flags/resume-check.js';
import { agentWords } from './flags/variant-flags.js';
import { evalHelp } from './help.js';
import { checkIsolation } from './isolation.js';
import type { CliIO } from './io.js';
import { variantInput } from './variant-input.js';

type EvalValues = FlagValues<typeof EVAL_FLAGS>;

export async function evalCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help, given } = parseFlags(args, EVAL_FLAGS);
  if (help) {
    io.stdout.write(`${evalHelp()}\n`);
    return 0;
  }
  if (values.resume !== undefined) refuseRecorded(EVAL_FLAGS, given, positionals, path.resolve(io.cwd, values.resume));
  const refused = await checkIsolation(values.isolation, io, 'eval');
  if (refused !== null) return refused;
  const json = values.json === true;
  const color = !json && shouldUseColor(io.stdout, io.env);
  const input = await evalInput(values, positionals, io);
  const hooks = cliHooks(io);
  if (input.agent === undefined && input.variants === undefined && input.resume === undefined) {
    io.stderr.write(
      `agent: ${DEFAULTS.agent} (offline, kills on the monitor's classification; never fixes). Other agents: --agent ${agentWords()
        .filter((word) => word !== DEFAULTS.agent)
        .join(' | ')}; see --help.\n`,
    );
  }
  const sequential = sequentialFlags(values);
  const result = sequential === null ? await runEval(input, hooks) : await runSequential(input, sequential, hooks);
  printResult(result, io, { json, color });
  return exitCode(result, values['fail-under'], io);
}

/** The CLI's one reporter (progress on stderr), and where reporter failures and warnings are said. */
function cliHooks(io: CliIO): RunHooks {
  // A library caller passes its own Reporter objects to runEval (hooks.reporters).
  const reporters = [
    createProgressReporter({
      stream: io.stderr,
      live: isLive(io.stderr, io.env),
      color: shouldUseColor(io.stderr, io.env),
    }),
  ];
  const onReporterError = (failure: ReporterFailure): unknown =>
    io.stderr.write(`reporter ${failure.reporter} failed in ${failure.hook}: ${String(failure.error)}\n`);
  return {
    reporters,
    onReporterError,
    shutdown: io.shutdown,
    afterRun: writeRunReports,
    onWarning: (line: string) => io.stderr.write(`${line}\n`),
  };
}

/** The invalid cases on stderr, then the run on stdout: as JSON, or as tables and where the results are. */
function printResult(result: RunResult, io: CliIO, { json, color }: { json: boolean; color: boolean }): void {
  for (const problem of result.problems) io.stderr.write(`invalid case: ${formatCaseProblem(problem)}\n`);
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ ...result.summary, runDir: result.runDir, problems: result.problems, interrupted: result.interrupted }, null, 2)}\n`,
    );
  } else {
    printTables(result.summary, io, color);
    io.stdout.write(`\nresults: ${result.runDir}\n`);
  }
}

function printTables(summary: RunResult['summary'], io: CliIO, color: boolean): void {
  io.stdout.write(`${renderAttemptTable(summary.attempts, { color })}\n\n`);
  io.stdout.write(`${renderSummaryTable(summary, { color })}\n\n`);
  io.stdout.write(`${renderClassTable(summary, { color })}\n`);
  // Side by side, once there is something to compare: one column per variant, paired tests, case × variant.
  if (summary.groups.length > 1) {
    io.stdout.write(`\n${renderComparisonTable(summary, { color })}\n`);
    io.stdout.write(`\n${renderPairwiseTable(summary, { color })}\n`);
    io.stdout.write(`\n${renderCaseMatrix(summary, { color })}\n`);
  }
  // Gates and hints, when a case had them: the gate pass rate, and solved with a hint against without.
  const loop = renderLoopTable(summary.loop ?? [], { color });
  if (loop !== '') io.stdout.write(`\n${loop}\n`);
  // What each installed CLI's own shell tool did with the repro, per hang class (none and inband side by side).
  const shell = renderShellToolsTable(summary.shellTools, { color });
  if (shell !== '') io.stdout.write(`\n${shell}\n`);
  const wiring = renderStdinWiringTable(summary.stdinWiring, { color });
  if (wiring !== '') io.stdout.write(`\n${wiring}\n`);
  // The monitor's confusion matrix, when a classification was seen at all (a nop run never ticks).
  const confusion = (summary.confusion ?? []).filter((matrix) => matrix.columns.some((column) => column !== 'none'));
  if (confusion.length > 0) io.stdout.write(`\n${renderConfusion(confusion, { color })}\n`);
  if (summary.sequential) io.stdout.write(`\n${renderSequential(summary.sequential)}\n`);
}

/**
 * The exit code, saying why on stderr: 130 interrupted, 1 attempts ended by the host or every attempt broken in the
 * harness, 2 invalid cases, 3 solved under --fail-under, else 0.
 */
function exitCode(result: RunResult, failUnder: number | undefined, io: CliIO): number {
  if (result.interrupted) return 130;
  // An attempt whose sandbox was killed from outside is an ERROR of the host, not of the agent: said, and resumable.
  const faulted = result.summary.attempts.filter((attempt) => attempt.fault !== undefined);
  if (faulted.length > 0) {
    const first = faulted[0]!;
    io.stderr.write(
      `hangbench eval: ${faulted.length} attempt${faulted.length === 1 ? '' : 's'} ended by the host, not the agent (${first.caseId}: ${first.fault?.message}); run \`hangbench eval --resume ${result.runDir}\` to run ${faulted.length === 1 ? 'it' : 'them'} again\n`,
    );
    return 1;
  }
  // Every attempt broke in the harness (an agent this host cannot run, say): the run measured nothing.
  if (result.harnessErrors.length > 0 && result.harnessErrors.length === result.summary.attempts.length) {
    io.stderr.write(
      `hangbench eval: every attempt broke in the harness, so this run measured nothing: ${result.harnessErrors[0]} (stacks in ${path.join(result.runDir, RUN_FILES.errors)})\n`,
    );
    return 1;
  }
  if (result.problems.length > 0) return 2;
  const { attempts, solved } = result.summary.totals;
  if (failUnder !== undefined && (attempts === 0 || solved / attempts < failUnder)) {
    io.stderr.write(`solved ${solved}/${attempts} is under --fail-under ${failUnder}\n`);
    return 3;
  }
  return 0;
}

/** Command line (and --config) to runEval's input: the cases and variants, then the run's own options. */
async function evalInput(values: EvalValues, positionals: readonly string[], io: CliIO): Promise<EvalOptionsInput> {
  const { config, input } = await variantInput(values, positionals, io);
  return {
    ...input,
    agentEnv: values['agent-env'],
    agentAllowHosts: values['agent-allow-host'],
    timeScale: values['time-scale'] ?? config?.timeScale,
    concurrency: values.concurrency ?? config?.concurrency,
    repeat: values.repeat ?? config?.repeat,
    seed: values.seed ?? config?.seed,
    out: values.out,
    runId: values['run-id'],
    maxTurns: values['max-turns'],
    resume: values.resume,
    shard: values.shard,
  };
}
