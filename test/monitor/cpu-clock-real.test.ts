import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../src/monitor/index.js';
import type { Tick } from '../../src/types/process.js';
import { disposeWatched, watch } from './watch.js';

// A program that needs 450 ms of CPU (its own start-up included) before it says it is ready and then waits forever:
// the start-up of a hang case (python importing, forking its workers) before the hang itself.
const STARTS_THEN_WAITS =
  "node -e 'const used = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };" +
  ' while (used() < 450); console.log("ready"); setInterval(() => {}, 1e6)\'';

const hogs: ChildProcess[] = [];

/**
 * Busy loops on CPU 0, as other jobs on a shared machine: a process pinned there gets a quarter of it. Each loop is a
 * session of its own (detached), so where the kernel groups scheduling by session (autogroup) the four still share
 * the CPU evenly, not the program's session against the three loops' one.
 */
function loadCpuZero(count: number): void {
  for (let i = 0; i < count; i++)
    hogs.push(spawn('taskset', ['-c', '0', 'node', '-e', 'for (;;);'], { stdio: 'ignore', detached: true }));
}

afterEach(async () => {
  for (const hog of hogs.splice(0)) hog.kill('SIGKILL');
  await disposeWatched();
});

const firstTick = (events: MonitorEvent[]): Tick | undefined =>
  events.flatMap((event) => (event.type === 'tick' ? [event.tick] : []))[0];

describe('monitor ticks under outside load', () => {
  it('come when the program has had the CPU a quiet machine would have given it by then', async () => {
    loadCpuZero(3);
    const { monitor, events } = await watch(`taskset -c 0 ${STARTS_THEN_WAITS}`, {
      mode: { mode: 'interval', everyMs: 1000 },
    });
    const event = await monitor.nextTickOrExit();
    expect(event.type).toBe('tick');
    const tick = firstTick(events)!;
    // On wall time the first tick came at 1 s with the program at most a third of a CPU into its 450 ms start-up, still
    // busy: an agent that kills what looks stuck killed a start-up. On its CPU-available clock the tick waits out
    // what the three loops took, and sees the program past its start-up, waiting.
    expect(tick.output.text).toContain('ready');
    expect(tick.classification).not.toBe('busy-no-output');
    expect(tick.dueMs).toBe(1000);
    expect(tick.cpuWaitMs).toBeGreaterThan(500);
    expect(tick.elapsedMs).toBeGreaterThanOrEqual(tick.dueMs! + tick.cpuWaitMs! - 1);
    // What a kill decided now records: the clock stays behind the wall by at least as much as at the tick.
    expect(monitor.cpuWaitMs()).toBeGreaterThan(500);
  }, 20_000);

  it('come on wall time for a program that waits without wanting a CPU, whatever the load', async () => {
    loadCpuZero(3);
    const { monitor, events } = await watch('taskset -c 0 sleep 1000', { mode: { mode: 'interval', everyMs: 500 } });
    for (let tick = 0; tick < 3; tick++) await monitor.nextTickOrExit();
    const [, second, third] = events.flatMap((event) => (event.type === 'tick' ? [event.tick] : []));
    // Its start (exec) waited behind the loops and is credited; asleep it is not runnable, and the loops beside it
    // are not its processes: between two ticks after its start nothing more is, and they are one interval apart.
    expect(third!.dueMs! - second!.dueMs!).toBe(500);
    expect(third!.cpuWaitMs! - second!.cpuWaitMs!).toBeLessThan(25);
  }, 20_000);
});
