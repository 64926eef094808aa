import { describe, expect, it } from 'vitest';
import { looksHung } from '../../src/types/process.js';
import { disposeAfterEach, processOf, start, statuses, stop } from './real-status.js';

/** Progress counts only from the processes the command's end waits on: a detached daemon's writes are its own. */

disposeAfterEach();

describe.skipIf(process.platform !== 'linux')('progress attribution on real processes', () => {
  it('names the detached daemon that holds the pipe a reader waits on, and does not count its log writes as progress', async () => {
    const { proc, monitor } = await start('bash detached-writer.sh');
    const ticks = await statuses(
      proc,
      monitor,
      (tick) => /detached, own session/.test(tick.reason) && /its own work/.test(tick.reason),
    );
    const hung = ticks.at(-1);
    expect(
      /its own work/.test(hung?.reason ?? '')
        ? []
        : ticks.slice(-5).map((tick) => `${tick.classification}: ${tick.reason}`),
    ).toEqual([]);
    expect(hung?.classification).toBe('blocked-on-pipe');
    expect(hung?.reason).toMatch(
      /^cat \(pid \d+\) is blocked reading a pipe whose (only writer is|writers are) bash \(pid \d+, detached, own session\)/,
    );
    expect(hung?.reason).toMatch(
      /bash \(pid \d+\), detached, grew files it has open by .* its own work, not the command's progress/,
    );
    expect(processOf(hung, hung?.culprit)?.command).toBe('bash');
    expect(ticks.filter((tick) => tick.classification === 'progressing' && /worker|grew/.test(tick.reason))).toEqual(
      [],
    );
    await stop(proc, monitor);
  });

  it('keeps a command that writes its own file progressing while a detached daemon writes beside it, until it exits 0 (healthy twin)', async () => {
    const { proc, monitor } = await start('bash detached-twin.sh');
    const ticks = await statuses(proc, monitor, () => false);
    expect((await proc.exited).exitCode).toBe(0);
    // the baseline kills after two hung ticks in a row: there must be none
    const streak = ticks.some(
      (tick, i) => i > 0 && looksHung(tick.classification) && looksHung(ticks[i - 1]!.classification),
    );
    expect(streak ? ticks.map((tick) => `${tick.classification}: ${tick.reason}`) : []).toEqual([]);
    expect(ticks.some((tick) => tick.classification === 'progressing' && /perl \(pid/.test(tick.reason))).toBe(true);
    // the daemon's log writes are never what makes it progress
    expect(
      ticks
        .filter((tick) => tick.classification === 'progressing' && /\(bash \(pid \d+\)\)/.test(tick.reason))
        .map((tick) => tick.reason),
    ).toEqual([]);
    await stop(proc, monitor);
  });
});
