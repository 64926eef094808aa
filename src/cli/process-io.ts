import { DEFAULTS } from '../defaults.js';
import { killEverySandboxNow } from '../sandbox/index.js';
import type { CliIO } from './io.js';

/** What the first Ctrl-C / SIGTERM says, by command: only eval and check-cases have sandboxes and a run to resume. */
const INTERRUPT_MESSAGES: Readonly<Record<string, string>> = {
  eval: 'stopping: killing every sandbox and keeping finished results; `hangbench eval --resume DIR` runs the rest (again to exit at once)',
  'check-cases': 'stopping: killing every sandbox; the cases checked so far are reported (again to exit at once)',
  capture: 'stopping: killing the captured command and writing what was seen (again to exit at once)',
  view: 'stopping the viewer',
};

/** After the first SIGINT/SIGTERM the run has this long to stop on its own before the process exits regardless. */
const SHUTDOWN_BOUND_MS = DEFAULTS.shutdown.boundMs;

/** Set once the command returned or failed: a shutdown bound that fires later has nothing left to report. */
let returned = false;

/** main's command returned or threw. */
export function commandEnded(): void {
  returned = true;
}

/**
 * The real process as a CliIO. First SIGINT/SIGTERM: abort the command (for eval: every sandbox is killed, finished
 * results kept); should it not have ended SHUTDOWN_BOUND_MS later (a stage that ignores the abort), exit anyway.
 * Second: exit at once. Every exit, a crash included, first makes one synchronous SIGKILL pass over every sandbox, so
 * nothing is left running; finished attempts are already on disk (score.json by rename) and `--resume` runs the rest.
 * A reader that closed stdout (`hangbench list | head`) ends the command quietly with 0, as `git log | head` does.
 */
export function processIO(command: string | undefined): CliIO {
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
  takeOverSignals(onSignal);
  process.stdout.on('error', closedReader);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    shutdown: shutdown.signal,
  };
}

/**
 * The bin script's start-up handlers (signals before this module loaded) give way to `onSignal`, which is added first:
 * a signal with no listener left is unwatched, and one already caught but not yet delivered would be dropped with it.
 */
function takeOverSignals(onSignal: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const startUp = process.listeners(signal);
    process.on(signal, onSignal);
    for (const listener of startUp) process.off(signal, listener);
  }
}

/** stdout's reader went away (EPIPE): nothing more can be said, so end quietly; any other write error is a fault. */
function closedReader(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`hangbench: cannot write to stdout: ${error.message}\n`);
  process.exit(1);
}
