import type { Monitor, MonitorEvent, MonitorOptions } from '../../src/monitor/index.js';
import { createMonitor } from '../../src/monitor/index.js';
import type { SandboxProcess } from '../../src/sandbox/types.js';
import type { Classification, Tick } from '../../src/types/process.js';
import { spawnTree } from './spawn-tree.js';

/** A real command under a real monitor, with every event it emitted. */
export interface Watched {
  readonly tree: SandboxProcess;
  readonly monitor: Monitor;
  readonly events: MonitorEvent[];
}

export function watch(command: string, options: Partial<Omit<MonitorOptions, 'process'>> = {}): Watched {
  const tree = spawnTree(command);
  const monitor = createMonitor({ mode: { mode: 'interval', everyMs: 150 }, ...options, process: tree });
  const events: MonitorEvent[] = [];
  monitor.on((event) => events.push(event));
  return { tree, monitor, events };
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
export async function ticksUntil(monitor: Monitor, expected: Classification, maxTicks = 25): Promise<{ match: Tick | null; seen: Tick[] }> {
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
