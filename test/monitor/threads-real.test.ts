import { describe, expect, it } from 'vitest';
import { processTree } from '../../src/monitor/ticks/tick-values.js';
import { looksHung } from '../../src/types/process.js';
import { disposeAfterEach, processOf, start, statuses, stop } from './real-status.js';

/** Threads one by one: which thread of a process waits on what, and a join on a thread that is itself stuck. */

disposeAfterEach();

describe.skipIf(process.platform !== 'linux')('threads on real processes', () => {
  it('names the thread a joining main thread waits for, and what that thread is blocked in', async () => {
    const { proc, monitor } = await start('python3 join-stuck-thread.py');
    const ticks = await statuses(proc, monitor, (tick) => /for a thread of its own/.test(tick.reason));
    const hung = ticks.at(-1)!;
    expect(
      /for a thread of its own/.test(hung.reason)
        ? []
        : ticks.slice(-5).map((tick) => `${tick.classification}: ${tick.reason}`),
    ).toEqual([]);
    expect(looksHung(hung.classification)).toBe(true);
    expect(hung.reason).toMatch(
      /^python3 join-stuck-thread\.py \(pid \d+\): its main thread waits on a lock \(futex\) at ~0% CPU for a thread of its own, and that thread is itself blocked: reader \(tid \d+\) in \S*pipe_read\S* read\(fd 3\)/,
    );
    const python = processOf(hung, hung.culprit)!;
    expect(python.command).toBe('python3');
    // the tid the reason gives is the one the command itself sees, and the snapshot lists that thread with its name
    const tid = Number(/reader \(tid (\d+)\)/.exec(hung.reason)![1]);
    expect(python.otherThreads).toEqual([
      expect.objectContaining({ tid, name: 'reader', state: 'S', syscall: expect.objectContaining({ arg0: 3 }) }),
    ]);
    // the tick's process list gives each other thread with its tid, name and what it is blocked in
    expect(processTree(hung.snapshot.processes)).toMatch(
      new RegExp(`threads 2: reader tid ${tid} \\S*pipe_read read\\(fd 3\\)`),
    );
    expect(hung.snapshot.waits?.relations).toContainEqual(expect.objectContaining({ kind: 'thread', pid: python.pid }));
    await stop(proc, monitor);
  });

  it('does not call a join on a thread that is working a thread blocked elsewhere, and it exits 0 (healthy twin)', async () => {
    const { proc, monitor } = await start('python3 join-finishing-thread.py');
    const ticks = await statuses(proc, monitor, () => false);
    expect((await proc.exited).exitCode).toBe(0);
    expect(ticks.filter((tick) => /for a thread of its own/.test(tick.reason)).map((tick) => tick.reason)).toEqual([]);
    // the worker is seen by name while it runs
    expect(
      ticks.some((tick) =>
        tick.snapshot.processes.some((sample) =>
          sample.otherThreads?.some((thread) => thread.name === 'cruncher' && thread.state === 'R'),
        ),
      ),
    ).toBe(true);
    await stop(proc, monitor);
  });
});
