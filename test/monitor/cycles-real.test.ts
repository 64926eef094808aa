import { expect, it } from 'vitest';
import type { Tick, WaitRelation } from '../../src/types/process.js';
import { describeOnLinux } from '../support/capability.js';
import { disposeAfterEach, MONITOR_FIXTURES, processOf, start, statuses, stop } from './real-status.js';

/** Wait-for cycles across processes, on real processes: the tick names the whole cycle, not one edge of it. */

disposeAfterEach();

function cycleOf(tick: Tick | undefined): Extract<WaitRelation, { kind: 'cycle' }> | undefined {
  return (tick?.snapshot.waits?.relations ?? []).find(
    (relation): relation is Extract<WaitRelation, { kind: 'cycle' }> => relation.kind === 'cycle',
  );
}

describeOnLinux('wait-for cycles on real processes', () => {
  it('names both processes of a flock deadlock and both locks, which the kernel does not detect for flock', async () => {
    const { proc, monitor, ready } = await start('python3 flock-cycle.py', MONITOR_FIXTURES);
    const [, lockA, lockB, second] = ready.split(' ');
    const ticks = await statuses(proc, monitor, (tick) => tick.output.bytes === 0 && cycleOf(tick) !== undefined);
    const tick = ticks.at(-1);
    const cycle = cycleOf(tick);
    expect(cycle?.members.map((member) => member.via)).toEqual(['lock', 'lock']);
    expect(cycle?.members.map((member) => processOf(tick, member.pid)?.command)).toEqual(['python3', 'python3']);
    expect(
      cycle?.members.map((member) => processOf(tick, member.pid)?.innerPid ?? processOf(tick, member.pid)?.pid),
    ).toContain(Number(second));
    expect(tick?.reason).toMatch(/^wait-for cycle: python3 flock-cycle\.py \(pid \d+\) waits for the flock lock on /);
    expect(tick?.reason).toContain(lockA);
    expect(tick?.reason).toContain(lockB);
    expect(tick?.reason).toMatch(/, which waits for the flock lock on \S+ held by pid \d+: none of them can move/);
    expect(cycle?.members.map((member) => member.pid)).toContain(tick?.culprit);
    await stop(proc, monitor);
  });

  it('names a parent in wait() on a child blocked writing the pipe only that parent would read', async () => {
    const { proc, monitor } = await start('echo ready; python3 popen-pipe-wait.py', MONITOR_FIXTURES);
    const ticks = await statuses(proc, monitor, (tick) => tick.output.bytes === 0 && cycleOf(tick) !== undefined);
    const tick = ticks.at(-1);
    const cycle = cycleOf(tick);
    expect(cycle?.members.map((member) => member.via).sort()).toEqual(['child', 'pipe-write']);
    const parent = cycle?.members.find((member) => member.via === 'child');
    expect(processOf(tick, parent?.pid)?.args).toBe('python3 popen-pipe-wait.py');
    expect(tick?.reason).toMatch(
      /^wait-for cycle: python3 \(pid \d+\) writes a full pipe that python3 popen-pipe-wait\.py \(pid \d+\) should read, which waits for its child pid \d+ to exit: none of them can move/,
    );
    expect(tick?.classification).toBe('blocked-on-pipe');
    await stop(proc, monitor);
  });
});
