import { fileURLToPath } from 'node:url';
import type { Monitor, MonitorEvent, MonitorOptions } from '../../src/monitor/index.js';
import { createMonitor } from '../../src/monitor/index.js';
import { createSandbox, probeHost, type Sandbox, type SandboxProcess } from '../../src/sandbox/index.js';
import type { Classification, Tick } from '../../src/types/process.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/monitor/', import.meta.url));

/** A real command in a real sandbox (bubblewrap's PID namespace where the host has it) under a real monitor. */
export interface Watched {
  readonly sandbox: Sandbox;
  readonly tree: SandboxProcess;
  readonly monitor: Monitor;
  readonly events: MonitorEvent[];
}

const live: Watched[] = [];
let counter = 0;

/** Starts `command` in a fresh sandbox over a copy of test/fixtures/monitor. Tests must call `disposeWatched()` in afterEach. */
export async function watch(command: string, options: Partial<Omit<MonitorOptions, 'process'>> = {}): Promise<Watched> {
  const sandbox = await createSandbox({
    attemptId: `test-monitor-${process.pid}-${++counter}`,
    workspaceSource: FIXTURES,
    timeScale: 1,
    capabilities: await probeHost(),
  });
  const tree = sandbox.spawn(command, { commandId: 1 });
  const monitor = createMonitor({ mode: { mode: 'interval', everyMs: 150 }, ...options, process: tree });
  const events: MonitorEvent[] = [];
  monitor.on((event) => events.push(event));
  const watched = { sandbox, tree, monitor, events };
  live.push(watched);
  return watched;
}

/** Kills what is still running, scans for leaks and removes every sandbox `watch` made. */
export async function disposeWatched(): Promise<void> {
  for (const { sandbox, tree } of live.splice(0)) {
    if (!tree.done) await tree.kill('harness', 'test cleanup');
    await sandbox.leakScan();
    await sandbox.dispose();
  }
}

/** Resolves once `text` has appeared on stdout: the fixture's readiness line. */
export function waitForText(tree: SandboxProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen = (seen + chunk.toString('utf8')).slice(-4096);
      if (seen.includes(text)) {
        tree.stdout.off('data', onData);
        resolve();
      }
    };
    tree.stdout.on('data', onData);
  });
}

/**
 * Collects ticks until one is classified `expected`, or `maxTicks` ticks pass, or the command
 * exits. Returns every tick seen, so a failure shows the whole sequence of classifications.
 */
export async function ticksUntil(
  monitor: Monitor,
  expected: Classification,
  maxTicks = 25,
): Promise<{ match: Tick | null; seen: Tick[] }> {
  const seen: Tick[] = [];
  while (seen.length < maxTicks) {
    const event = await monitor.nextTickOrExit();
    if (event.type === 'exit') break;
    seen.push(event.tick);
    if (event.tick.classification === expected) return { match: event.tick, seen };
  }
  return { match: null, seen };
}

export function sequence(ticks: readonly Tick[]): string {
  return ticks.map((tick) => `${tick.seq}:${tick.classification} (${tick.reason})`).join('\n');
}
