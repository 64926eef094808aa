import { z } from 'zod';
import { killEverySandboxNow } from '../sandbox/index.js';
import { resultsFaultOf } from '../trace/results-fault.js';
import { ConfigFileSchema } from '../run/config-file.js';
import { hangbenchVersion } from '../run/meta.js';
import { RunSummarySchema } from '../summary/index.js';
import { TraceEventSchema } from '../types/events.js';
import { CaseFileSchema } from '../types/case.js';
import { HangbenchError, INPUT_ERROR_CODES } from '../types/errors.js';
import { checkCasesCommand } from './check-cases.js';
import { evalCommand } from './eval.js';
import { MAIN_HELP } from './help.js';
import type { CliIO } from './io.js';
import { compareCommand } from './compare.js';
import { planCommand } from './plan.js';
import { captureCommand } from './capture.js';
import { initCommand } from './init.js';
import { listCommand } from './list.js';
import { mergeCommand } from './merge.js';
import { reportCommand } from './report.js';
import { scoreCommand } from './score.js';
import { validateCommand } from './validate.js';
import { viewCommand } from './view.js';
import { DEFAULTS } from '../defaults.js';

const COMMANDS: Record<string, (args: readonly string[], io: CliIO) => Promise<number>> = {
  eval: evalCommand,
  validate: validateCommand,
  'check-cases': checkCasesCommand,
  score: scoreCommand,
  report: reportCommand,
  compare: compareCommand,
  plan: planCommand,
  merge: mergeCommand,
  view: viewCommand,
  list: listCommand,
  init: initCommand,
  capture: captureCommand,
  schema: async (args, io) => {
    const [which = 'case'] = args;
    const schema = JSON_SCHEMAS[which];
    if (!schema)
      throw new HangbenchError('USAGE', `schema takes ${Object.keys(JSON_SCHEMAS).join(', ')}; got "${which}"`);
    io.stdout.write(`${JSON.stringify(schema(), null, 2)}\n`);
    return 0;
  },
};

const JSON_SCHEMAS: Record<string, () => unknown> = {
  case: () => caseJsonSchema(),
  config: () => configJsonSchema(),
  trace: () => traceEventJsonSchema(),
  summary: () => summaryJsonSchema(),
};

export function traceEventJsonSchema(): unknown {
  return {
    ...(z.toJSONSchema(TraceEventSchema, { io: 'output', unrepresentable: 'any' }) as object),
    title: 'hangbench trace.jsonl event (one per line)',
  };
}

export function summaryJsonSchema(): unknown {
  return {
    ...(z.toJSONSchema(RunSummarySchema, { io: 'output', unrepresentable: 'any' }) as object),
    title: 'hangbench summary.json',
  };
}

/** Set once the command returned or failed: a shutdown bound that fires later has nothing left to report. */
let returned = false;

/** After the first SIGINT/SIGTERM the run has this long to stop on its own before the process exits regardless. */
const SHUTDOWN_BOUND_MS = DEFAULTS.shutdown.boundMs;

/**
 * Entry point: argv in, exit code out. Only this layer touches process signals and decides how errors look.
 * `--debug` (anywhere before `--`) adds the stack to a typed error or an environment fault, which is otherwise one line.
 */
export async function main(argv: readonly string[], given?: CliIO): Promise<number> {
  const end = argv.indexOf('--');
  const debug = argv.slice(0, end < 0 ? undefined : end).includes('--debug');
  const [command, ...rest] = debug ? argv.filter((arg, index) => arg !== '--debug' || (end >= 0 && index > end)) : argv;
  const io = given ?? processIO(command);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(`${MAIN_HELP}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    io.stdout.write(`${await hangbenchVersion()}\n`);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    io.stderr.write(`hangbench: unknown command "${command}"\n\n${MAIN_HELP}\n`);
    return 2;
  }
  try {
    return await run(rest, io);
  } catch (error) {
    const stack = debug ? `\n${stackOf(error)}` : '';
    if (error instanceof HangbenchError && INPUT_ERROR_CODES.includes(error.code)) {
      io.stderr.write(`hangbench ${command}: ${error.message}${stack}\n`);
      return 2;
    }
    if (error instanceof HangbenchError && error.code === 'INTERRUPTED') {
      io.stderr.write(`hangbench ${command}: ${error.message}\n`);
      return 130;
    }
    // A typed error (an unreadable trace, a sandbox that cannot start) says what is wrong in its message; a stack would bury it.
    if (error instanceof HangbenchError) {
      io.stderr.write(`hangbench ${command}: ${error.message}${stack}\n`);
      return 1;
    }
    // A disk or folder that refused a write, met where no stage named it: the environment, not a bug.
    const fault = resultsFaultOf(error);
    if (fault !== null) {
      io.stderr.write(
        `hangbench ${command}: ${fault.message}; fix the disk or folder named and run again${debug ? stack : ' (--debug shows where)'}\n`,
      );
      return 1;
    }
    io.stderr.write(`hangbench ${command}: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  } finally {
    returned = true;
  }
}

function stackOf(error: unknown): string {
  const cause = (error as Error).cause;
  return [
    (error as Error).stack ?? String(error),
    ...(cause === undefined ? [] : [`cause: ${(cause as Error).stack ?? String(cause)}`]),
  ].join('\n');
}

export function configJsonSchema(): unknown {
  return {
    ...(z.toJSONSchema(ConfigFileSchema, { io: 'input', unrepresentable: 'any' }) as object),
    title: 'hangbench config file (--config)',
  };
}

export function caseJsonSchema(): unknown {
  return {
    ...(z.toJSONSchema(CaseFileSchema, { io: 'input', unrepresentable: 'any' }) as object),
    title: 'hangbench case file',
  };
}

/** What the first Ctrl-C / SIGTERM says, by command: only eval and check-cases have sandboxes and a run to resume. */
const INTERRUPT_MESSAGES: Readonly<Record<string, string>> = {
  eval: 'stopping: killing every sandbox and keeping finished results; `hangbench eval --resume DIR` runs the rest (again to exit at once)',
  'check-cases': 'stopping: killing every sandbox; the cases checked so far are reported (again to exit at once)',
  capture: 'stopping: killing the captured command and writing what was seen (again to exit at once)',
  view: 'stopping the viewer',
};

/**
 * First SIGINT/SIGTERM: abort the command (for eval: every sandbox is killed, finished results kept); should it not
 * have ended SHUTDOWN_BOUND_MS later (a stage that ignores the abort), exit anyway. Second: exit at once. Every exit,
 * a crash included, first makes one synchronous SIGKILL pass over every sandbox, so nothing is left running; finished
 * attempts are already on disk (score.json by rename) and `--resume` runs the rest. A reader that closed stdout
 * (`hangbench list | head`) ends the command quietly with 0, as `git log | head` does.
 */
function processIO(command: string | undefined): CliIO {
  const shutdown = new AbortController();
  process.on('exit', () => killEverySandboxNow());
  const message = INTERRUPT_MESSAGES[command ?? ''] ?? 'stopping';
  const onSignal = (signal: NodeJS.Signals) => {
    if (shutdown.signal.aborted) process.exit(130);
    process.stderr.write(`\nhangbench: ${signal} — ${message}\n`);
    shutdown.abort(signal);
    setTimeout(() => {
      if (returned) process.exit(130);
      process.stderr.write(
        `hangbench: not stopped within ${SHUTDOWN_BOUND_MS} ms of ${signal}; exiting now${command === 'eval' ? ' (finished attempts are kept; --resume runs the rest)' : ''}\n`,
      );
      process.exit(130);
    }, SHUTDOWN_BOUND_MS).unref();
  };
  // The bin script's start-up handlers (signals before this module loaded) give way to these.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.stdout.on('error', closedReader);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    shutdown: shutdown.signal,
  };
}

/** stdout's reader went away (EPIPE): nothing more can be said, so end quietly; any other write error is a fault. */
function closedReader(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`hangbench: cannot write to stdout: ${error.message}\n`);
  process.exit(1);
}
