import { describe, expect, it } from 'vitest';
import { HintSchedule } from '../../src/attempt/hint-schedule.js';

describe('HintSchedule', () => {
  it('an after hint comes due at its scaled time and is taken once', () => {
    const schedule = new HintSchedule([{ after: 20_000, text: 'quiet?' }], 0.5);
    expect(schedule.take(9_999)).toEqual([]);
    expect(schedule.take(12_000)).toEqual([{ hint: 0, trigger: 'after 20s', text: 'quiet?', dueMs: 10_000 }]);
    expect(schedule.take(50_000)).toEqual([]);
  });

  it('a ticks hint rides on the tick that makes the count, across commands', () => {
    const schedule = new HintSchedule([{ ticks: 2, text: 'still?' }], 1);
    schedule.noteTick(10_000);
    expect(schedule.take(10_000)).toEqual([]);
    schedule.noteTick(20_000);
    expect(schedule.take(20_000)).toEqual([{ hint: 0, trigger: '2 ticks', text: 'still?', dueMs: 20_000 }]);
  });

  it('an onset hint counts from the first onset, scaled, and never comes without one', () => {
    const none = new HintSchedule([{ onset: 5000, text: 'waiting?' }], 0.1);
    expect(none.take(1_000_000)).toEqual([]);
    const schedule = new HintSchedule([{ onset: 5000, text: 'waiting?' }], 0.1);
    schedule.noteOnset(3000);
    schedule.noteOnset(9000);
    expect(schedule.take(3400)).toEqual([]);
    expect(schedule.take(3600)).toEqual([{ hint: 0, trigger: '5s after onset', text: 'waiting?', dueMs: 3500 }]);
  });

  it('several hints due at one observation come together, in the case order', () => {
    const schedule = new HintSchedule(
      [
        { ticks: 1, text: 'b' },
        { after: 1000, text: 'a' },
      ],
      1,
    );
    schedule.noteTick(5000);
    expect(schedule.take(5000).map((due) => due.text)).toEqual(['b', 'a']);
  });
});
