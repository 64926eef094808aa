import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { FairWallClock, type WallExpiry } from '../../src/attempt/wall-clock.js';
import { DEFAULTS } from '../../src/defaults.js';
import type { CpuTimes, HostCapabilities, Sandbox } from '../../src/sandbox/index.js';
import { Output, sandboxPerTest } from '../sandbox/helpers.js';

const makeSandbox = sandboxPerTest();
const load: ChildProcess[] = [];
afterEach(() => {
  for (const child of load.splice(0)) child.kill('SIGKILL');
});

function expiry(wallMs: number, times: (sinceMs: number) => CpuTimes): Promise<WallExpiry> {
  const started = performance.now();
  return new Promise((resolve) => new FairWallClock(wallMs, () => times(performance.now() - started), resolve));
}

const cores = availableParallelism();

/** CPU ms every process on the machine has run, from /proc/stat's `cpu` line (user … steal, less idle and iowait). */
function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = fields.reduce((sum, value) => sum + value, 0) - fields[3]! - fields[4]!;
  return busy * (1000 / 100);
}

describe('FairWallClock: the wall budget in CPU-available time', () => {
  it('ends at the budget when nothing waited for a CPU', async () => {
    const ended = await expiry(300, () => ({ waitedMs: 0, ranMs: 0 }));
    expect(ended.cpuWaitMs).toBe(0);
    expect(ended.elapsedMs).toBeGreaterThanOrEqual(300);
  });

  it('moves its end by the wait that others caused, and says by how much', async () => {
    // waiting from the start for 400 ms while running on none of the cores: others held them
    const ended = await expiry(300, (since) => ({ waitedMs: Math.min(since, 400), ranMs: 0 }));
    expect(ended.cpuWaitMs).toBeGreaterThanOrEqual(390);
    expect(ended.cpuWaitMs).toBeLessThanOrEqual(400);
    expect(ended.elapsedMs).toBeGreaterThanOrEqual(300 + ended.cpuWaitMs);
  });

  it('moves it no further than the cap: wallCpuWaitCap × the budget in all', async () => {
    const ended = await expiry(200, (since) => ({ waitedMs: since, ranMs: 0 }));
    expect(ended.cpuWaitMs).toBe(200 * (DEFAULTS.wallCpuWaitCap - 1));
    expect(ended.elapsedMs).toBeGreaterThanOrEqual(200 * DEFAULTS.wallCpuWaitCap);
  });

  it('credits nothing for a wait the attempt causes itself: its processes held every core meanwhile', async () => {
    const ended = await expiry(300, (since) => ({ waitedMs: since, ranMs: since * cores }));
    expect(ended.cpuWaitMs).toBe(0);
  });

  it('stopped, it never fires and keeps the wait it had counted', async () => {
    let fired = false;
    let waitedMs = 0;
    const clock = new FairWallClock(
      100,
      () => ({ waitedMs, ranMs: 0 }),
      () => (fired = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    waitedMs = 50;
    clock.stop();
    const kept = clock.credit();
    expect(kept).toBe(50);
    waitedMs = 5_000;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fired).toBe(false);
    expect(clock.credit()).toBe(kept);
  });
});

/** Busy loops on CPU 0 at the sandbox's own nice, so a command pinned there waits runnable most of the time. */
function loadCpu0(count: number): void {
  for (let i = 0; i < count; i += 1)
    load.push(
      spawn('nice', ['-n', String(DEFAULTS.limits.nice), 'taskset', '-c', '0', 'sh', '-c', 'while :; do :; done']),
    );
}

/** What a command's processes got of the CPUs over `ms` in the sandbox, looked at as often as the wall budget looks. */
async function timesOf(sandbox: Sandbox, command: string, ms: number): Promise<CpuTimes> {
  const proc = sandbox.spawn(command, { commandId: 1 });
  const out = Output.of(sandbox, proc);
  await out.line(/started/);
  const before = sandbox.cpuTimes();
  const until = performance.now() + ms;
  while (performance.now() < until) {
    sandbox.cpuTimes();
    await new Promise((resolve) => setTimeout(resolve, DEFAULTS.wallSampleMs));
  }
  const after = sandbox.cpuTimes();
  await proc.kill('harness', 'test over');
  return { waitedMs: after.waitedMs - before.waitedMs, ranMs: after.ranMs - before.ranMs };
}

const shapes: [string, ((caps: HostCapabilities) => HostCapabilities) | undefined][] = [
  ["this host's sandbox", undefined],
  ['the no-cgroup fallback (schedstat)', (caps) => ({ ...caps, mechanism: 'process-group+scan', cgroupRoot: null })],
];

describe.skipIf(process.platform !== 'linux')('Sandbox.cpuTimes: what the attempt got of the CPUs', () => {
  for (const [shape, capabilities] of shapes) {
    it(`${shape}: a busy program kept from its core counts the wait; a sleeping one counts none`, async () => {
      loadCpu0(3);
      const busy = await makeSandbox('cpu-wait-busy', capabilities ? { capabilities } : {});
      // two loops of its own on core 0 beside the three outside: each waits at least half the time, whatever share of
      // the core the cgroup weights give the attempt against the loops outside
      const loop = "taskset -c 0 sh -c 'while :; do :; done'";
      const busyTimes = await timesOf(busy, `${loop} & echo started; exec ${loop}`, 1_500);
      const idle = await makeSandbox('cpu-wait-idle', capabilities ? { capabilities } : {});
      const idleTimes = await timesOf(idle, 'echo started; exec sleep 30', 1_500);
      // runnable and waiting for most of the 1.5 s, and ran a little
      expect(busyTimes.waitedMs).toBeGreaterThan(500);
      expect(busyTimes.ranMs).toBeGreaterThan(0);
      // a sleep is not runnable: whatever the load, its budget is not moved
      expect(idleTimes.waitedMs).toBeLessThan(50);
    });
  }

  it('an agent that keeps every core busy itself to buy time: the wall budget moves only by what others ran', async () => {
    const sandbox = await makeSandbox('cpu-wait-self');
    const loops = Array.from({ length: cores * 2 }, () => "sh -c 'while :; do :; done' &").join(' ');
    const proc = sandbox.spawn(`${loops} echo started; wait`, { commandId: 1 });
    await Output.of(sandbox, proc).line(/started/);
    const before = { times: sandbox.cpuTimes(), machine: machineBusyMs() };
    const ended = await new Promise<WallExpiry>(
      (resolve) => new FairWallClock(1_500, () => sandbox.cpuTimes(), resolve),
    );
    const after = { times: sandbox.cpuTimes(), machine: machineBusyMs() };
    await proc.kill('harness', 'test over');
    // the loops wait for each other ...
    expect(after.times.waitedMs - before.times.waitedMs).toBeGreaterThan(500);
    // ... but hold the machine meanwhile, so the clock weighs that wait by the share others took: whatever else runs
    // on the machine (other test files, say), the deadline moves by no more than that share of the window, where a
    // clock that credited the attempt's own contention would move it by most of the window
    const othersMs = Math.max(0, after.machine - before.machine - (after.times.ranMs - before.times.ranMs));
    expect(ended.cpuWaitMs).toBeLessThan(othersMs / cores + 300);
  });
});
