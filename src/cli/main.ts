import { z } from 'zod';
import { resultsFaultOf } from '../trace/results-fault.js';
import { ConfigFileSchema } from '../run/index.js';
import { hangbenchVersion } from '../run/index.js';
import { RunSummarySchema } from '../summary/index.js';
import { TraceEventSchema } from '../types/events.js';
import { CaseFileSchema } from '../types/case.js';
import { HangbenchError, INPUT_ERROR_CODES } from '../types/errors.js';
import { checkCasesCommand } from './check-cases.js';
import { evalCommand } from './eval.js';
import { MAIN_HELP } from './help.js';
import type { CliIO } from './io.js';
import { commandEnded, processIO } from './process-io.js';
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
    commandEnded();
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
