import { expect, it } from 'vitest';
import { describeOnLinux } from '../support/capability.js';
import { disposeAfterEach, MONITOR_FIXTURES, processOf, start, statuses, stop } from './real-status.js';

/** A supervisor that restarts a crashing worker forever, writing only its log: a restart loop, not progress. */

disposeAfterEach();

describeOnLinux('restart loops on real processes', () => {
  it('names the supervisor that restarts a worker dying by SIGSEGV again and again', async () => {
    const { proc, monitor, ready } = await start('python3 crash-supervisor.py', MONITOR_FIXTURES);
    const supervisor = Number(ready.split(' ')[1]);
    const ticks = await statuses(proc, monitor, (tick) => / restarts /.test(tick.reason), 500);
    const tick = ticks.at(-1);
    expect(tick?.classification).toBe('sleeping');
    expect(tick?.reason).toMatch(
      /^python3 crash-supervisor\.py \(pid \d+\) restarts python3: it died by SIGSEGV [3-9] times in \d+\.\ds; nothing but a log grew/,
    );
    expect(processOf(tick, tick?.culprit)?.innerPid ?? tick?.culprit).toBe(supervisor);
    await stop(proc, monitor);
  });

  it('does not call a supervisor that restarted a worker once and goes on a restart loop', async () => {
    const { proc, monitor } = await start('python3 crash-supervisor.py once', MONITOR_FIXTURES);
    const ticks = await statuses(proc, monitor, (tick) => /restarted it/.test(tick.output.text), 500);
    expect(ticks.at(-1)?.output.text).toMatch(/worker died \(-11\)/);
    let polls = 0;
    const after = await statuses(proc, monitor, () => ++polls >= 4, 500);
    const deaths = after.flatMap((tick) => tick.snapshot.waits?.ended ?? []);
    expect(after).toHaveLength(4);
    for (const tick of after) {
      expect(`${tick.classification}: ${tick.reason}`).toMatch(/^progressing: /);
      expect(tick.reason).not.toMatch(/restarts/);
    }
    expect(deaths.filter((end) => end.signal !== null)).toHaveLength(0);
    await stop(proc, monitor);
  });
});
