import { describe, expect, it, vi } from 'vitest';
import { fanOut } from '../../src/run/reporter-hooks.js';
import {
  createReporters,
  isLive,
  registerReporter,
  type AttemptInfo,
  type Reporter,
  type ReporterFailure,
} from '../../src/report/reporters.js';
import { summarize } from '../../src/summary/summarize.js';
import { HangbenchError } from '../../src/types/errors.js';
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
    expect(failures.map((f) => [f.reporter, f.hook, (f.error as Error).message])).toEqual([['async-broken', 'onRunEnd', 'disk full']]);
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

describe('registry', () => {
  it('creates registered reporters by name with the context', () => {
    const factory = vi.fn((context: { color: boolean }) => ({ name: `custom:${context.color}` }));
    registerReporter('test-custom', factory);
    const stream = { write: () => true };
    const [progress, custom] = createReporters(['progress', 'test-custom'], { stream, live: false, color: true });
    expect(progress?.name).toBe('progress');
    expect(custom?.name).toBe('custom:true');
    expect(factory).toHaveBeenCalledOnce();
  });

  it('refuses an unknown name, listing the known ones, and a duplicate registration', () => {
    expect(() => createReporters(['nope'], { stream: { write: () => true }, live: false, color: false })).toThrow(
      /unknown reporter "nope"; use one of: progress/,
    );
    expect(() => registerReporter('progress', () => ({ name: 'x' }))).toThrow(HangbenchError);
  });
});

describe('isLive', () => {
  it('is live only on a TTY outside CI', () => {
    expect(isLive({ isTTY: true }, {})).toBe(true);
    expect(isLive({ isTTY: true }, { CI: 'true' })).toBe(false);
    expect(isLive({ isTTY: true }, { CI: 'false' })).toBe(true);
    expect(isLive({ isTTY: false }, {})).toBe(false);
  });
});
