import { describe, expect, it } from 'vitest';
import { nextDeadline } from '../../src/monitor/index.js';
import { monotonicStart } from '../../src/monitor/schedule.js';

describe('nextDeadline', () => {
  it('counts deadlines from the start, not from the previous tick', () => {
    expect(nextDeadline(1000, 100, 1000, 0)).toEqual({ index: 1, at: 1100 });
    // a tick that ran 30 ms late still aims the next one at start + 2·interval
    expect(nextDeadline(1000, 100, 1130, 1)).toEqual({ index: 2, at: 1200 });
  });

  it('skips deadlines missed while the loop was busy instead of bunching them', () => {
    expect(nextDeadline(1000, 100, 1450, 1)).toEqual({ index: 5, at: 1500 });
  });

  it('never repeats a deadline when a timer fires a little early', () => {
    expect(nextDeadline(1000, 100, 1199.6, 2)).toEqual({ index: 3, at: 1300 });
  });
});

describe('monotonicStart', () => {
  it('keeps a performance.now() start and converts a Date.now() one', () => {
    const now = performance.now();
    expect(monotonicStart(now)).toBe(now);
    expect(Math.abs(monotonicStart(Date.now()) - performance.now())).toBeLessThan(1000);
  });
});
