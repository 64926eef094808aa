import { expect, it } from 'vitest';
import type { Keeper, Tick, WaitRelation } from '../../src/types/process.js';
import { describeOnLinux } from '../support/capability.js';
import { disposeAfterEach, MONITOR_FIXTURES, start, statuses, stop } from './real-status.js';

/** What keeps an idle process alive, on real processes: the keeper is named from /proc alone. */

disposeAfterEach();

type Idle = Extract<WaitRelation, { kind: 'idle' }>;

function idleOf(tick: Tick | undefined): Idle | undefined {
  return (tick?.snapshot.waits?.relations ?? []).find((relation): relation is Idle => relation.kind === 'idle');
}

/** Runs `command` to its readiness line and statuses until a silent one names an idle relation; that status. */
async function idleStatus(
  command: string,
): Promise<{ tick: Tick | undefined; keepers: readonly Keeper[]; ready: string }> {
  const { proc, monitor, ready } = await start(command, MONITOR_FIXTURES);
  const ticks = await statuses(proc, monitor, (tick) => tick.output.bytes === 0 && idleOf(tick) !== undefined);
  await stop(proc, monitor);
  const tick = ticks.at(-1);
  return { tick, keepers: idleOf(tick)?.keepers ?? [], ready };
}

describeOnLinux('what keeps an idle process alive, on real processes', () => {
  it('a Node server: the listening socket in its epoll interest list, by address', async () => {
    const { tick, keepers, ready } = await idleStatus('node keep-alive.mjs server');
    const address = `127.0.0.1:${ready.split(' ')[1]}`;
    expect(keepers).toEqual([{ what: 'listen', address }]);
    expect(tick?.reason).toMatch(
      new RegExp(
        `^node keep-alive\\.mjs \\(pid \\d+\\) is idle in its event loop \\(epoll\\), kept alive by a listening socket on ${address.replaceAll('.', '\\.')}; no output for`,
      ),
    );
    expect(tick?.culprit).toBe(idleOf(tick)?.pid);
  });

  it('a child blocked writing to the idle parent is the culprit, not what keeps the parent alive', async () => {
    const { proc, monitor } = await start('node keep-alive.mjs writer', MONITOR_FIXTURES);
    const ticks = await statuses(
      proc,
      monitor,
      (tick) =>
        tick.output.bytes === 0 && tick.snapshot.processes.some((p) => p.command === 'python3' && p.state === 'S'),
    );
    await stop(proc, monitor);
    const tick = ticks.at(-1);
    const writer = tick?.snapshot.processes.find((process) => process.command === 'python3');
    expect(writer).toBeDefined();
    expect(tick?.culprit).toBe(writer?.pid);
    expect(tick?.reason).not.toContain('kept alive by');
  });

  it('fs.watch of a directory: an inotify watch on it', async () => {
    const { tick, keepers } = await idleStatus('node keep-alive.mjs watch');
    expect(keepers).toEqual([{ what: 'inotify', watches: 1, paths: ['watched-src'] }]);
    expect(tick?.reason).toContain('kept alive by an inotify watch on watched-src/');
  });

  it('a setInterval and nothing else: a timer, from the epoll wait’s timeout', async () => {
    const { tick, keepers } = await idleStatus('node keep-alive.mjs interval');
    expect(keepers).toHaveLength(1);
    const [timer] = keepers;
    expect(timer?.what).toBe('timer');
    const due = timer?.what === 'timer' ? timer.dueMs : -1;
    expect(due).toBeGreaterThan(0);
    expect(due).toBeLessThanOrEqual(60_000);
    expect(tick?.reason).toMatch(/kept alive by a timer due in \d/);
  });

  it('two worker threads waiting for messages: 2 worker threads idle in event loops of their own', async () => {
    const { tick, keepers } = await idleStatus('node keep-alive.mjs workers');
    expect(keepers).toEqual([{ what: 'threads', count: 2 }]);
    expect(tick?.reason).toContain('kept alive by 2 worker threads idle in event loops of their own');
  });

  it('a Python epoll loop on a timerfd: the timerfd, with its interval', async () => {
    const { tick, keepers } = await idleStatus('python3 timerfd-loop.py');
    expect(keepers).toHaveLength(1);
    expect(keepers[0]).toMatchObject({ what: 'timerfd', intervalMs: 30_000 });
    expect(tick?.reason).toMatch(
      /^python3 timerfd-loop\.py \(pid \d+\) is idle in its event loop \(epoll\), kept alive by a timerfd \(every 30\.0s, next in \d/,
    );
  });
});
