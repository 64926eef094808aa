import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { createMonitor } from '../../src/monitor/index.js';
import type { Monitor } from '../../src/monitor/index.js';
import { createSandbox, probeHost } from '../../src/sandbox/index.js';
import type { Sandbox, SandboxProcess } from '../../src/sandbox/index.js';
import type { ProcessSample, Tick } from '../../src/types/process.js';
import type { Terminal } from '../../src/types/terminal.js';
import { Output } from '../sandbox/helpers.js';

/** A fixture of test/fixtures/waits (or another folder) run in a real sandbox under a poll-mode monitor, and its statuses over time. */

const FIXTURES = fileURLToPath(new URL('../fixtures/waits', import.meta.url));
export const MONITOR_FIXTURES = fileURLToPath(new URL('../fixtures/monitor', import.meta.url));
const POLL_MS = 200;
/** bounds the wait for what a test waits to see, not its speed */
const MAX_POLLS = 60;

let sandbox: Sandbox | undefined;
let counter = 0;

export function disposeAfterEach(): void {
  afterEach(async () => {
    await sandbox?.dispose();
    sandbox = undefined;
  });
}

/** Starts `command` and resolves once it printed its readiness line (`ready …`), with that line. */
export async function start(
  command: string,
  fixtures: string = FIXTURES,
  terminal: Terminal = 'pipe',
): Promise<{ proc: SandboxProcess; monitor: Monitor; ready: string }> {
  sandbox = await createSandbox({
    attemptId: `test-monitor-real-${process.pid}-${++counter}`,
    workspaceSource: fixtures,
    timeScale: 1,
    capabilities: await probeHost(),
  });
  const proc = sandbox.spawn(command, { commandId: 1, terminal });
  const out = Output.of(sandbox, proc);
  const monitor = createMonitor({ process: proc, mode: { mode: 'poll' } });
  const ready = (await out.line(/^ready.*$/m))[0];
  return { proc, monitor, ready };
}

/** Statuses (each over a fresh interval) until one satisfies `done`, the command exits, or the polls run out. */
export async function statuses(
  proc: SandboxProcess,
  monitor: Monitor,
  done: (tick: Tick) => boolean,
  pollMs = POLL_MS,
): Promise<Tick[]> {
  const ticks: Tick[] = [];
  for (let poll = 0; poll < MAX_POLLS && !proc.done; poll++) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const tick = monitor.status();
    ticks.push(tick);
    if (done(tick)) break;
  }
  return ticks;
}

export function processOf(tick: Tick | undefined, pid: number | null | undefined): ProcessSample | undefined {
  return tick?.snapshot.processes.find((process) => process.pid === pid);
}

export async function stop(proc: SandboxProcess, monitor: Monitor): Promise<void> {
  if (!proc.done) await proc.kill('harness', 'test over');
  await proc.exited;
  monitor.stop();
}
