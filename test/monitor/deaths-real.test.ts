import { expect, it } from 'vitest';
import type { ProcessEnd, Tick } from '../../src/types/process.js';
import { describeOnLinux } from '../support/capability.js';
import { disposeAfterEach, MONITOR_FIXTURES, start, statuses, stop } from './real-status.js';

/** Processes of the tree that ended during the command, on real processes: how they ended where /proc still shows it. */

disposeAfterEach();

/** Every end the statuses carried (each tick carries those seen since the one before). */
function endsOf(ticks: readonly Tick[]): ProcessEnd[] {
  return ticks.flatMap((tick) => tick.snapshot.waits?.ended ?? []);
}

const inner = (end: ProcessEnd): number => end.innerPid ?? end.pid;

describeOnLinux('deaths in the tree on real processes', () => {
  it('says which worker of a parent blocked on their pipe died by a signal, and which exited non-zero', async () => {
    const { proc, monitor, ready } = await start('python3 pool-crash.py', MONITOR_FIXTURES);
    const [segv, exit3] = ready.split(' ').slice(1).map(Number);
    const ticks = await statuses(proc, monitor, (tick) => tick.output.bytes === 0 && /died by/.test(tick.reason));
    const ends = endsOf(ticks);
    expect(ends.find((end) => inner(end) === segv)).toMatchObject({
      seen: 'zombie',
      signal: 'SIGSEGV',
      exitCode: null,
      args: 'python3 pool-crash.py',
    });
    expect(ends.find((end) => inner(end) === exit3)).toMatchObject({ seen: 'zombie', signal: null, exitCode: 3 });
    const tick = ticks.at(-1);
    expect(tick?.reason).toMatch(
      new RegExp(
        `^python3 pool-crash\\.py \\(pid \\d+\\) is blocked reading a pipe .*; its child python3 pool-crash\\.py \\(pid (${segv}|${exit3})\\) (died by SIGSEGV|exited 3) at \\d+\\.\\ds \\(and 1 more\\)`,
      ),
    );
    // each end is carried by one tick only
    expect(ends.filter((end) => inner(end) === segv)).toHaveLength(1);
    await stop(proc, monitor);
  });

  it('records a step its wrapper reaped before a look as ended, and says that how cannot be seen', async () => {
    const { proc, monitor } = await start('bash wrapper-swallows.sh', MONITOR_FIXTURES);
    const ticks = await statuses(proc, monitor, (tick) => tick.output.bytes === 0 && /its child/.test(tick.reason));
    const step = endsOf(ticks).find((end) => end.command === 'python3');
    // bash reaps its child at once: only a look inside that instant would read its status (SIGKILL)
    expect(step).toMatchObject(
      step?.seen === 'zombie' ? { signal: 'SIGKILL' } : { seen: 'gone', exitCode: null, signal: null },
    );
    expect(ticks.at(-1)?.reason).toMatch(
      /its child python3 \(pid \d+\) (ended \(reaped before a look: how cannot be seen\)|died by SIGKILL) at \d+\.\ds/,
    );
    await stop(proc, monitor);
  });
});
