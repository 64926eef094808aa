import { describe, expect, it } from 'vitest';
import { fanOut } from '../../src/run/reporter-hooks.js';
import { type AttemptInfo, type Reporter, type ReporterFailure } from '../../src/report/reporters.js';
import { summarize } from '../../src/summary/summarize.js';
import { META, hangAttempt } from './attempt-fixtures.js';

const attempt: AttemptInfo = {
  attemptId: 'a1',
  caseId: 'py-pipe-deadlock',
  kind: 'hang',
  class: 'pipe-write-block',
  variant: 'interval-10s',
  agent: 'baseline',
  repeat: 1,
};

describe('fanOut', () => {
  it('calls every reporter in order and records one that throws, without throwing', () => {
    const calls: string[] = [];
    const failures: ReporterFailure[] = [];
    const boom = new Error('boom');
    const reporters: Reporter[] = [
      { name: 'first', onAttemptStart: (a) => void calls.push(`first:${a.caseId}`) },
      {
        name: 'broken',
        onAttemptStart: () => {
          throw boom;
        },
      },
      { name: 'last', onAttemptStart: (a) => void calls.push(`last:${a.caseId}`) },
      { name: 'silent' },
    ];
    const fan = fanOut(reporters, (failure) => failures.push(failure));
    expect(() => fan.onAttemptStart(attempt)).not.toThrow();
    expect(calls).toEqual(['first:py-pipe-deadlock', 'last:py-pipe-deadlock']);
    expect(failures).toEqual([{ reporter: 'broken', hook: 'onAttemptStart', error: boom }]);
  });

  it('records a rejected async hook, and its promise resolves after every hook settled', async () => {
    const failures: ReporterFailure[] = [];
    let finished = false;
    const fan = fanOut(
      [
        { name: 'async-broken', onRunEnd: () => Promise.reject(new Error('disk full')) },
        {
          name: 'async-ok',
          onRunEnd: async () => {
            await Promise.resolve();
            finished = true;
          },
        },
      ],
      (failure) => failures.push(failure),
    );
    await expect(fan.onRunEnd(summarize([], META))).resolves.toBeUndefined();
    expect(finished).toBe(true);
    expect(failures.map((f) => [f.reporter, f.hook, (f.error as Error).message])).toEqual([
      ['async-broken', 'onRunEnd', 'disk full'],
    ]);
  });

  it('returns nothing for synchronous hooks, and survives an onError that throws', () => {
    const fan = fanOut(
      [
        {
          name: 'broken',
          onTick: () => {
            throw new Error('x');
          },
        },
      ],
      () => {
        throw new Error('sink broken');
      },
    );
    expect(fan.onAttemptEnd(attempt, hangAttempt())).toBeUndefined();
    expect(() => fan.onTick(attempt, {} as never)).not.toThrow();
  });
});
