import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFairly, type WaitedCommand } from '../../src/attempt/cpu-fair-wait.js';
import { DEFAULTS } from '../../src/defaults.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** A real process as the wait sees a sandboxed command: its pid while alive, and its exit. */
function command(argv: readonly string[]): WaitedCommand & { readonly child: ChildProcess } {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
  started.push(child);
  let alive = true;
  const exited = new Promise<void>((resolve) => child.on('exit', () => ((alive = false), resolve())));
  return { child, exited, pids: () => (alive && child.pid ? [child.pid] : []) };
}

describe.skipIf(process.platform !== 'linux')('waitFairly: a timeout in CPU-available time', () => {
  it('a blocked program times out: waiting in a sleep is not waiting for a CPU, and the deadline stays within the cap', async () => {
    const sleeper = command(['sleep', '30']);
    const result = await waitFairly(sleeper, 300);
    expect(result.timedOut).toBe(true);
    expect(result.deadlineMs).toBeLessThanOrEqual(300 * DEFAULTS.verifyCpuWaitCap);
    // a sleep neither runs nor waits for a CPU: the timeout is the program's, not the machine's
    expect(result).toMatchObject({ saturated: false });
    expect(result.cpuMs).toBeLessThan(50);
  });

  it('a program kept from the CPU by busy loops on its core gets that time back, up to the cap', async () => {
    // Three busy loops and the program share CPU 0, so the program waits runnable most of the time.
    for (let i = 0; i < 3; i += 1) command(['taskset', '-c', '0', 'sh', '-c', 'while :; do :; done']);
    const program = command(['taskset', '-c', '0', 'sh', '-c', 'while :; do :; done']);
    const result = await waitFairly(program, 300);
    expect(result.cpuWaitMs).toBeGreaterThan(0);
    expect(result.deadlineMs).toBeGreaterThan(300);
    expect(result.deadlineMs).toBeLessThanOrEqual(300 * DEFAULTS.verifyCpuWaitCap);
    expect(result.timedOut).toBe(true);
    // a quarter of one core for the program: it waited for a CPU as long as the cap allows, and ran meanwhile
    expect(result.saturated).toBe(true);
    expect(result.deadlineMs).toBe(300 * DEFAULTS.verifyCpuWaitCap);
    expect(result.cpuMs).toBeGreaterThan(0);
  });

  it('an exit before the deadline is not a timeout', async () => {
    const quick = command(['true']);
    expect((await waitFairly(quick, 10_000)).timedOut).toBe(false);
  });

  it('an abort ends the wait without calling it a timeout', async () => {
    const sleeper = command(['sleep', '30']);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    expect((await waitFairly(sleeper, 10_000, stop.signal)).timedOut).toBe(false);
  });
});
