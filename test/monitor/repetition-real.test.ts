import { describe, expect, it } from 'vitest';
import { disposeAfterEach, processOf, start, statuses, stop } from './real-status.js';

/** Chatty hangs on real processes in a real sandbox: a line repeated with only a count moving is a loop, not progress. */

const LOOP = /again and again/;

disposeAfterEach();

describe.skipIf(process.platform !== 'linux')('chatty hangs on real processes', () => {
  it('calls a connection retried forever, printing an attempt counter, a retry loop and names the retrying process', async () => {
    const { proc, monitor } = await start('python3 retry-loop.py');
    const ticks = await statuses(proc, monitor, (tick) => LOOP.test(tick.reason));
    const hung = ticks.at(-1);
    expect(LOOP.test(hung?.reason ?? '') ? [] : ticks.map((tick) => `${tick.classification}: ${tick.reason}`)).toEqual(
      [],
    );
    expect(hung?.classification).toBe('sleeping');
    expect(hung?.reason).toMatch(
      /^python3 retry-loop\.py \(pid \d+\) prints the same line again and again \(\d+ times in a row, only a count moving: "\[client\] connect to .*\(attempt \d+\)"\) and nothing else changes: a retry loop/,
    );
    expect(processOf(hung, hung?.culprit)?.args).toContain('retry-loop.py');
    // before the loop has repeated often enough, a tick with output is still progress
    expect(ticks.find((tick) => tick.output.bytes > 0)?.classification).toBe('progressing');
    await stop(proc, monitor);
  });

  it('names the caller that holds the lock its helper polls for (flock -n in a loop: no waiter in /proc/locks)', async () => {
    const { proc, monitor } = await start('bash lock-poll.sh');
    const ticks = await statuses(proc, monitor, (tick) => LOOP.test(tick.reason));
    const hung = ticks.at(-1);
    expect(LOOP.test(hung?.reason ?? '') ? [] : ticks.map((tick) => `${tick.classification}: ${tick.reason}`)).toEqual(
      [],
    );
    expect(hung?.classification).toBe('sleeping');
    expect(hung?.reason).toMatch(
      /^bash \(pid \d+\) prints the same line again and again .*: it polls for the flock lock on \S+lock-poll\.\d+\.lock, held by its own caller bash lock-poll\.sh \(pid \d+\) through fd 9 \(bash \(pid \d+\) inherited that descriptor and keeps it open itself\)/,
    );
    expect(processOf(hung, hung?.culprit)?.args).toContain('lock-poll.sh');
    await stop(proc, monitor);
  });

  for (const style of ['percent', 'bytes']) {
    it(`keeps a line repeated with a ${style} counter that moves progressing until it exits (healthy twin)`, async () => {
      const { proc, monitor } = await start(`python3 progress-lines.py ${style}`);
      const ticks = await statuses(proc, monitor, () => false);
      expect(proc.done).toBe(true);
      const withOutput = ticks.filter((tick) => tick.output.bytes > 0);
      expect(withOutput.length).toBeGreaterThanOrEqual(5);
      expect(withOutput.filter((tick) => tick.classification !== 'progressing').map((tick) => tick.reason)).toEqual([]);
      await stop(proc, monitor);
    });
  }
});
