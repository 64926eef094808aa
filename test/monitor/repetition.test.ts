import { describe, expect, it } from 'vitest';
import { RepetitionTracker } from '../../src/monitor/classify/repetition.js';

const lines = (count: number, line: (i: number) => string): string =>
  Array.from({ length: count }, (_, i) => line(i)).join('\n') + '\n';

describe('RepetitionTracker', () => {
  it('counts a line that repeats with only an attempt counter moving, across ticks', () => {
    const tracker = new RepetitionTracker();
    expect(
      tracker.feed(lines(6, (i) => `connect to 127.0.0.1:4301 refused; retrying in 0.5s (attempt ${i + 1})`)),
    ).toMatchObject({ lines: 6, period: 1, wholeTick: true });
    expect(
      tracker.feed(lines(6, (i) => `connect to 127.0.0.1:4301 refused; retrying in 0.5s (attempt ${i + 7})`)),
    ).toMatchObject({ lines: 12, wholeTick: true });
  });

  it('counts a cycle of two lines, and folded lines as repeats', () => {
    const tracker = new RepetitionTracker();
    expect(
      tracker.feed(lines(8, (i) => (i % 2 === 0 ? `waiting for lock (${i / 2}s)` : 'lock is busy'))),
    ).toMatchObject({ lines: 8, period: 2 });
    expect(tracker.feed('still waiting\n… (line repeated 9 more times)\n')).toMatchObject({ lines: 10, period: 1 });
  });

  it('does not count lines that say how far it got, or numbers that move by more than one', () => {
    const tracker = new RepetitionTracker();
    expect(tracker.feed(lines(20, (i) => `copying: ${i * 5}% done`))).toBeNull();
    expect(tracker.feed(lines(20, (i) => `[${i + 1}/20] migrating`))).toBeNull();
    expect(tracker.feed(lines(20, (i) => `copied ${i * 4096} bytes`))).toBeNull();
  });

  it('says when the latest tick printed something besides the repeated line', () => {
    const tracker = new RepetitionTracker();
    tracker.feed(lines(10, (i) => `retrying (attempt ${i})`));
    expect(tracker.feed('connected\nloaded the keys\n')).toBeNull();
    expect(tracker.feed('retrying (attempt 1)\nretrying (attempt 2)\nretrying (attempt 3)\n')).toMatchObject({
      lines: 3,
      wholeTick: true,
    });
    expect(tracker.feed('connected\nretrying (attempt 1)\nretrying (attempt 2)\nretrying (attempt 3)\n')).toMatchObject(
      { lines: 3, wholeTick: false },
    );
  });
});
