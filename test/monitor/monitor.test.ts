import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../src/monitor/index.js';
import { createMonitor } from '../../src/monitor/index.js';
import type { Tick } from '../../src/types/process.js';
import { killAllTrees, spawnTree } from './spawn-tree.js';
import { disposeWatched, watch } from './watch.js';

afterEach(async () => {
  await disposeWatched();
  await killAllTrees();
});

const ticksOf = (events: MonitorEvent[]): Tick[] =>
  events.flatMap((event) => (event.type === 'tick' ? [event.tick] : []));

/** Puts this thread to sleep without yielding to the event loop, as a long synchronous task would. */
function blockEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('monitor lifecycle', () => {
  it('numbers ticks 1, 2, … and stops them at exit; the exit comes last and is replayed at once', async () => {
    const { monitor, events } = await watch('python3 ticker.py 6', { mode: { mode: 'interval', everyMs: 100 } });
    let event = await monitor.nextTickOrExit();
    while (event.type === 'tick') event = await monitor.nextTickOrExit();
    expect(event.exit.exitCode).toBe(0);
    expect(event.tail).toContain('[6] migrating table_6 ... ok');
    const ticks = ticksOf(events);
    expect(ticks.length).toBeGreaterThan(1);
    expect(ticks.map((tick) => tick.seq)).toEqual(ticks.map((_, i) => i + 1));
    expect(events.at(-1)?.type).toBe('exit');
    expect(monitor.exited).toBe(true);
    await expect(monitor.nextTickOrExit()).resolves.toBe(event);
    const countAtExit = events.length;
    // An absence cannot be awaited: give a stray timer a few intervals to misfire.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(events.length).toBe(countAtExit);
  });

  it('ticks on time from a startedAt on either clock: Date.now() (the sandbox) or performance.now() (the contract)', async () => {
    const { tree, monitor } = await watch('python3 ticker.py 3', { mode: { mode: 'interval', everyMs: 100 } });
    expect(tree.startedAt).toBeGreaterThan(performance.timeOrigin);
    // Only the stand-in (spawn-tree.ts) reports startedAt on the performance.now() clock; the real sandbox never does.
    const contract = spawnTree('python3 ticker.py 3');
    expect(contract.startedAt).toBeLessThan(performance.timeOrigin);
    for (const current of [monitor, createMonitor({ process: contract, mode: { mode: 'interval', everyMs: 100 } })]) {
      const first = await current.nextTickOrExit();
      expect(first.type).toBe('tick');
      if (first.type !== 'tick') return;
      // The next tick after the call: the first, or a later one when the machine was slow to get here (seq 2 in CI).
      expect(first.tick.dueMs).toBe(first.tick.seq * 100);
      expect(first.tick.elapsedMs).toBeGreaterThanOrEqual(first.tick.dueMs! - 1);
      // a clock mixed up would put the first tick decades, or never, after the start
      expect(first.tick.elapsedMs).toBeLessThan(60_000);
    }
  });

  it('reports output at most once per tick, and the counts add up to the total', async () => {
    const { monitor, events } = await watch('python3 ticker.py 6', { mode: { mode: 'interval', everyMs: 100 } });
    while ((await monitor.nextTickOrExit()).type === 'tick');
    const outputs = events.filter((event) => event.type === 'output');
    const exit = events.find((event) => event.type === 'exit');
    expect(outputs.length).toBeLessThanOrEqual(ticksOf(events).length + 1);
    expect(outputs.reduce((sum, event) => sum + event.bytes, 0)).toBe(exit?.totalBytes);
    expect(outputs.at(-1)?.totalBytes).toBe(exit?.totalBytes);
  });

  it('skips deadlines missed while the event loop was blocked instead of bunching ticks', async () => {
    const intervalMs = 100;
    const { tree, monitor } = await watch('bash sleep-forever.sh', { mode: { mode: 'interval', everyMs: intervalMs } });
    const first = await monitor.nextTickOrExit();
    if (first.type !== 'tick') expect.fail('exited early');
    blockEventLoop(3.5 * intervalMs);
    const blockedUntil = performance.now() - tree.startedAt;
    const late = await monitor.nextTickOrExit();
    const next = await monitor.nextTickOrExit();
    if (late.type !== 'tick' || next.type !== 'tick') expect.fail('exited early');
    expect([late.tick.seq, next.tick.seq]).toEqual([first.tick.seq + 1, first.tick.seq + 2]);
    // the late tick stands for every missed deadline; the next one waits for the first deadline after it
    const nextDeadline = (Math.floor(late.tick.elapsedMs / intervalMs) + 1) * intervalMs;
    expect(late.tick.elapsedMs).toBeGreaterThanOrEqual(blockedUntil);
    expect(next.tick.elapsedMs).toBeGreaterThanOrEqual(nextDeadline - 2);
  });

  it('rejects a wait whose signal aborts, and keeps ticking for others', async () => {
    const { monitor } = await watch('bash sleep-forever.sh', { mode: { mode: 'interval', everyMs: 100 } });
    const controller = new AbortController();
    const waiting = monitor.nextTickOrExit(controller.signal);
    controller.abort(new Error('agent answered'));
    await expect(waiting).rejects.toThrow('agent answered');
    await expect(monitor.nextTickOrExit()).resolves.toMatchObject({ type: 'tick' });
  });

  it('after stop: no events, waits rejected, and the output still drained so the program can finish', async () => {
    const { tree, monitor, events } = await watch('head -c 2000000 /dev/zero; echo done', {
      mode: { mode: 'interval', everyMs: 100 },
    });
    const waiting = monitor.nextTickOrExit();
    monitor.stop();
    await expect(waiting).rejects.toThrow('stopped');
    await expect(tree.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(events).toEqual([]);
  });
});

describe('onset', () => {
  it('fires once when the onset text appears in real output', async () => {
    const { monitor, events } = await watch('python3 ticker.py 5', {
      mode: { mode: 'interval', everyMs: 100 },
      onset: { output: 'table_3 ... ok' },
    });
    while ((await monitor.nextTickOrExit()).type === 'tick');
    const onsets = events.filter((event) => event.type === 'onset');
    expect(onsets).toHaveLength(1);
    expect(onsets[0]).toMatchObject({ trigger: 'output "table_3 ... ok" on stdout' });
    expect(monitor.onsetSeen).toBe(true);
  });

  it('fires at start for {start: true}, even to a listener added after creation', async () => {
    const { monitor, events } = await watch('python3 ticker.py 2', {
      mode: { mode: 'interval', everyMs: 100 },
      onset: { start: true },
    });
    while ((await monitor.nextTickOrExit()).type === 'tick');
    expect(events.filter((event) => event.type === 'onset')).toEqual([
      // cpuWaitMs: how far the schedule's CPU-available clock was behind the wall then (the interrupt latency's start).
      { type: 'onset', elapsedMs: 0, trigger: 'start', cpuWaitMs: expect.any(Number) },
    ]);
  });

  it('fires by timer for {after}, and not at all when the command exits first', async () => {
    const hung = await watch('bash sleep-forever.sh', {
      mode: { mode: 'interval', everyMs: 100 },
      onset: { after: 200 },
    });
    while (!hung.monitor.onsetSeen) await hung.monitor.nextTickOrExit();
    expect(hung.events.find((event) => event.type === 'onset')).toEqual({
      type: 'onset',
      elapsedMs: 200,
      trigger: '200ms after start',
      cpuWaitMs: expect.any(Number),
    });
    const quick = await watch('echo quick', { mode: { mode: 'interval', everyMs: 100 }, onset: { after: 60_000 } });
    await quick.monitor.nextTickOrExit();
    expect(quick.monitor.onsetSeen).toBe(false);
  });
});

describe('log copy', () => {
  it('still reports the exit when the log cannot be written', async () => {
    const { monitor } = await watch('echo hi', {
      mode: { mode: 'interval', everyMs: 100 },
      logFile: '/nonexistent-dir/output.log',
    });
    let event = await monitor.nextTickOrExit();
    while (event.type === 'tick') event = await monitor.nextTickOrExit();
    expect(event).toMatchObject({ type: 'exit', tail: 'hi\n', totalBytes: 3 });
  });

  it('copies output to the log up to the cap, then one marker line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hangbench-monitor-'));
    try {
      const logFile = join(dir, 'output.log');
      const { tree, monitor } = await watch('bash flood.sh', {
        mode: { mode: 'interval', everyMs: 100 },
        logFile,
        logCapBytes: 100_000,
      });
      let event = await monitor.nextTickOrExit();
      while (event.type === 'tick' && event.tick.totalOutputBytes < 200_000) event = await monitor.nextTickOrExit();
      await tree.kill('harness', 'enough output');
      await monitor.nextTickOrExit();
      const log = readFileSync(logFile, 'utf8');
      expect(log.startsWith('release notes:\nRelease notes\n')).toBe(true);
      expect(log.endsWith('\n[log truncated at 100000 bytes]\n')).toBe(true);
      expect(log.length).toBe(100_000 + '\n[log truncated at 100000 bytes]\n'.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
