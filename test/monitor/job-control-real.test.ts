import { expect, it } from 'vitest';
import type { Tick, WaitRelation } from '../../src/types/process.js';
import { describeOnLinux } from '../support/capability.js';
import { disposeAfterEach, MONITOR_FIXTURES, processOf, start, statuses, stop } from './real-status.js';

/** Job control on real processes: a stopped process says why it stopped, and who waits for it. */

disposeAfterEach();

type Stopped = Extract<WaitRelation, { kind: 'stopped' }>;

function stoppedOf(tick: Tick | undefined): Stopped | undefined {
  return (tick?.snapshot.waits?.relations ?? []).find((relation): relation is Stopped => relation.kind === 'stopped');
}

/** Runs a mode of job-stop.py to its stop; the last status, its stopped relation and the child's pid as printed. */
async function stoppedChild(mode: string, terminal: 'pipe' | 'pty') {
  const { proc, monitor, ready } = await start(`python3 job-stop.py ${mode}`, MONITOR_FIXTURES, terminal);
  const child = Number(ready.split(' ')[1]);
  const ticks = await statuses(proc, monitor, (tick) => stoppedOf(tick) !== undefined && tick.culprit != null);
  const tick = ticks.at(-1);
  const relation = stoppedOf(tick);
  const stopped = processOf(tick, relation?.pid);
  expect(stopped?.innerPid ?? stopped?.pid).toBe(child);
  const parent = processOf(tick, stopped?.ppid);
  expect(parent?.args).toBe(`python3 job-stop.py ${mode}`);
  return { proc, monitor, tick, relation, child, parent };
}

describeOnLinux('job control on real processes', () => {
  it('a child in a process group of its own that changes the terminal settings: SIGTTOU, and its parent waits', async () => {
    const { proc, monitor, tick, relation, child, parent } = await stoppedChild('ttou', 'pty');
    expect(relation?.cause).toMatchObject({ by: 'terminal', pgid: child, call: { name: 'ioctl', fd: 0 } });
    const foreground = relation?.cause.by === 'terminal' ? relation.cause.foreground : -1;
    expect(foreground).not.toBe(child);
    expect(relation?.waiters).toEqual([{ pid: parent?.pid, via: 'child' }]);
    expect(tick?.classification).toBe('stopped');
    expect(tick?.culprit).toBe(relation?.pid);
    expect(tick?.reason).toContain(
      `python3 (pid ${child}) is stopped (T): a background job (pgrp ${child}, foreground ${foreground}) that changed the terminal's settings (ioctl fd 0), which stops it (SIGTTOU); python3 job-stop.py (pid `,
    );
    expect(tick?.reason).toMatch(/; python3 job-stop\.py \(pid \d+\) waits for it to exit/);
    await stop(proc, monitor);
  });

  it('a child in a background process group that reads the terminal: SIGTTIN', async () => {
    const { proc, monitor, tick, relation, child } = await stoppedChild('ttin', 'pty');
    expect(relation?.cause).toMatchObject({ by: 'terminal', pgid: child, call: { name: 'read', fd: 0 } });
    expect(tick?.reason).toMatch(
      /is stopped \(T\): a background job \(pgrp \d+, foreground \d+\) that read the terminal \(fd 0\), which stops it \(SIGTTIN\)/,
    );
    await stop(proc, monitor);
  });

  it('a child that sent itself SIGSTOP, with no terminal: the signal, and the parent in wait()', async () => {
    const { proc, monitor, tick, relation, parent } = await stoppedChild('self', 'pipe');
    expect(relation?.cause).toEqual({ by: 'signal', signal: 'SIGSTOP' });
    expect(relation?.waiters).toEqual([{ pid: parent?.pid, via: 'child' }]);
    expect(tick?.reason).toMatch(
      /^python3 \(pid \d+\) is stopped \(T\) by SIGSTOP it sent itself; it runs again only on SIGCONT; python3 job-stop\.py \(pid \d+\) waits for it to exit/,
    );
    await stop(proc, monitor);
  });

  it('a child stopped under its tracer, which reads a pipe only that child writes', async () => {
    const { proc, monitor, tick, relation, parent } = await stoppedChild('traced', 'pipe');
    expect(processOf(tick, relation?.pid)?.state).toBe('t');
    expect(relation?.cause).toMatchObject({ by: 'tracer', tracerPid: parent?.pid, tracer: { pid: parent?.pid } });
    expect(relation?.waiters).toEqual([{ pid: parent?.pid, via: 'pipe-read' }]);
    expect(tick?.reason).toMatch(
      /^python3 job-stop\.py \(pid \d+\) is stopped \(t\) by its tracer python3 job-stop\.py \(pid \d+\), which has not resumed it; python3 job-stop\.py \(pid \d+\) reads a pipe it writes/,
    );
    expect(tick?.culprit).toBe(relation?.pid);
    await stop(proc, monitor);
  });
});
