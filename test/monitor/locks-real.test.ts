import { expect, it } from 'vitest';
import type { Tick, WaitRelation } from '../../src/types/process.js';
import { describeOnLinux } from '../support/capability.js';
import { disposeAfterEach, MONITOR_FIXTURES, processOf, start, statuses, stop } from './real-status.js';

/**
 * Locks of every kind with their holders, on real processes: a waiter blocked in the kernel on an OFD lock (whose
 * /proc/locks lines name no pid), and waiters that poll — SQLite's busy handler, a silent `flock -n` retry loop —
 * which /proc/locks never lists as waiting.
 */

/** Statuses this far apart: a poller that sleeps 100 ms between tries wakes several times in between. */
const POLL_MS = 500;

disposeAfterEach();

function lockOf(tick: Tick | undefined, pid: number | undefined): Extract<WaitRelation, { kind: 'lock' }> | undefined {
  return (tick?.snapshot.waits?.relations ?? []).find(
    (relation): relation is Extract<WaitRelation, { kind: 'lock' }> =>
      relation.kind === 'lock' && (pid === undefined || relation.pid === pid),
  );
}

/** The host pid of the process the command sees as `inner`, in a tick's snapshot. */
function hostPid(tick: Tick | undefined, inner: number): number | undefined {
  return tick?.snapshot.processes.find((process) => (process.innerPid ?? process.pid) === inner)?.pid;
}

describeOnLinux('locks and their holders on real processes', () => {
  it("names the process holding the database lock that SQLite's busy handler retries for", async () => {
    const { proc, monitor, ready } = await start('python3 sqlite-busy.py', MONITOR_FIXTURES);
    const holderInner = Number(ready.split(' ')[1]);
    const ticks = await statuses(
      proc,
      monitor,
      (tick) => tick.output.bytes === 0 && lockOf(tick, undefined)?.polling === true,
      POLL_MS,
    );
    const tick = ticks.at(-1);
    const lock = lockOf(tick, undefined);
    expect(processOf(tick, lock?.pid)?.args).toContain('sqlite-busy.py');
    expect(lock).toMatchObject({ lock: 'posix', polling: true, holder: { command: 'python3' } });
    expect(lock?.path).toMatch(/busy\.\d+\.db$/);
    expect(lock?.holder?.pid).toBe(hostPid(tick, holderInner));
    expect(tick?.culprit).toBe(hostPid(tick, holderInner));
    expect(tick?.reason).toMatch(
      new RegExp(
        `^python3 sqlite-busy\\.py \\(pid \\d+\\) waits for the posix lock on \\S+busy\\.\\d+\\.db \\(it sleeps and retries: it polls\\), held by python3 sqlite-hold\\.py \\(pid ${holderInner}, sleeping\\)`,
      ),
    );
    await stop(proc, monitor);
  });

  it('names the holder of a flock that a silent `until flock -n` loop polls for', async () => {
    const { proc, monitor, ready } = await start('bash flock-poll-silent.sh', MONITOR_FIXTURES);
    const [, path, holderInner] = ready.split(' ');
    const ticks = await statuses(
      proc,
      monitor,
      (tick) => tick.output.bytes === 0 && lockOf(tick, undefined)?.polling === true,
      POLL_MS,
    );
    const tick = ticks.at(-1);
    const lock = lockOf(tick, undefined);
    expect(lock).toMatchObject({ lock: 'flock', path, polling: true });
    expect(processOf(tick, lock?.pid)).toMatchObject({ command: 'bash', args: 'bash flock-poll-silent.sh' });
    // the `flock` that took the lock is gone; the subshell that exec'd sleep keeps its descriptor, and the lock with it
    expect(lock?.holder).toMatchObject({ command: 'sleep' });
    expect(lock?.holder?.pid).toBe(hostPid(tick, Number(holderInner)));
    expect(tick?.culprit).toBe(lock?.holder?.pid);
    expect(tick?.reason).toContain(
      `waits for the flock lock on ${path} (it sleeps and retries: it polls), held by sleep (pid ${holderInner}`,
    );
    await stop(proc, monitor);
  });

  it('matches a blocked OFD lock waiter and its holder by the file, though /proc/locks names neither', async () => {
    const { proc, monitor, ready } = await start('python3 ofd-wait.py', MONITOR_FIXTURES);
    const [, path, holderInner] = ready.split(' ');
    const ticks = await statuses(
      proc,
      monitor,
      (tick) => tick.output.bytes === 0 && lockOf(tick, undefined) !== undefined,
    );
    const tick = ticks.at(-1);
    const lock = lockOf(tick, undefined);
    expect(lock).toMatchObject({ lock: 'ofd', path, holderPid: null });
    expect(lock?.polling).toBeUndefined();
    expect(processOf(tick, lock?.pid)?.args).toBe('python3 ofd-wait.py');
    expect(lock?.holder?.pid).toBe(hostPid(tick, Number(holderInner)));
    expect(tick?.reason).toMatch(
      new RegExp(
        `^python3 ofd-wait\\.py \\(pid \\d+\\) waits for the ofd lock on \\S+, held by python3 ofd-wait\\.py \\(pid ${holderInner}, sleeping\\)`,
      ),
    );
    await stop(proc, monitor);
  });
});
