import { describe, expect, it } from 'vitest';
import { scheduleFor } from '../../src/monitor/index.js';
import type { ModeSchedule } from '../../src/monitor/index.js';
import { monotonicStart } from '../../src/monitor/ticks/schedule.js';

/** Serves a schedule as the monitor's timer would when every timer fires on time: the first n deadlines. */
function deadlines(schedule: ModeSchedule, count: number, lastOutputMs: number | null = null): number[] {
  const out: number[] = [];
  let now = 0;
  while (out.length < count) {
    const at = schedule.next(now, lastOutputMs);
    if (at === null) break;
    schedule.served(at);
    out.push(at);
    now = at;
  }
  return out;
}

describe('interval schedule', () => {
  it('counts deadlines from the start, not from the previous tick', () => {
    const schedule = scheduleFor({ mode: 'interval', everyMs: 100 })!;
    expect(schedule.next(0, null)).toBe(100);
    schedule.served(100);
    // a tick that ran 30 ms late still aims the next one at start + 2·interval
    expect(schedule.next(130, null)).toBe(200);
  });

  it('skips deadlines missed while the loop was busy instead of bunching them', () => {
    const schedule = scheduleFor({ mode: 'interval', everyMs: 100 })!;
    schedule.served(100);
    expect(schedule.next(450, null)).toBe(500);
  });

  it('never repeats a deadline when a timer fires a little early', () => {
    const schedule = scheduleFor({ mode: 'interval', everyMs: 100 })!;
    schedule.served(100);
    schedule.served(200);
    expect(schedule.next(199.6, null)).toBe(300);
  });
});

describe('no-output schedule', () => {
  it('ticks once `after` passed in silence, then every `every` while it stays silent', () => {
    expect(deadlines(scheduleFor({ mode: 'no-output', afterMs: 500, everyMs: 200 })!, 3)).toEqual([500, 700, 900]);
    expect(deadlines(scheduleFor({ mode: 'no-output', afterMs: 500 })!, 3)).toEqual([500, 1000, 1500]);
  });

  it('starts the wait over at every output', () => {
    const schedule = scheduleFor({ mode: 'no-output', afterMs: 500 })!;
    expect(schedule.next(0, 300)).toBe(800);
    schedule.served(800);
    expect(schedule.next(800, 900)).toBe(1400);
    expect(schedule.next(800, null)).toBe(1300);
  });
});

describe('backoff schedule', () => {
  it('ticks at N, 2N, 4N … with each gap capped at max', () => {
    expect(deadlines(scheduleFor({ mode: 'backoff', firstMs: 100, factor: 2, maxMs: 300 })!, 6)).toEqual([
      100, 200, 400, 700, 1000, 1300,
    ]);
    expect(deadlines(scheduleFor({ mode: 'backoff', firstMs: 100, factor: 1, maxMs: 300 })!, 3)).toEqual([
      100, 200, 300,
    ]);
  });

  it('skips deadlines that were missed', () => {
    const schedule = scheduleFor({ mode: 'backoff', firstMs: 100, factor: 2, maxMs: 10_000 })!;
    schedule.served(100);
    expect(schedule.next(450, null)).toBe(800);
  });
});

describe('timeout schedule, and the modes that push nothing', () => {
  it('has a single deadline, at `after`, that is a timeout and not a tick', () => {
    const schedule = scheduleFor({ mode: 'timeout', afterMs: 5000 })!;
    expect(schedule.action).toBe('timeout');
    expect(deadlines(schedule, 3)).toEqual([5000]);
  });

  it('poll and wait-pid have no schedule', () => {
    expect(scheduleFor({ mode: 'poll' })).toBeNull();
    expect(scheduleFor({ mode: 'wait-pid' })).toBeNull();
  });
});

describe('monotonicStart', () => {
  it('keeps a performance.now() start and converts a Date.now() one', () => {
    const now = performance.now();
    expect(monotonicStart(now)).toBe(now);
    expect(Math.abs(monotonicStart(Date.now()) - performance.now())).toBeLessThan(1000);
  });
});
