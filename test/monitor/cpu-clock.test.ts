import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { scheduleFor } from '../../src/monitor/index.js';
import { CpuAvailableClock } from '../../src/monitor/ticks/cpu-clock.js';
import { ScheduleTimer } from '../../src/monitor/ticks/schedule.js';
import type { CpuTimes } from '../../src/sandbox/index.js';

/** Counters that grow with the wall clock: `waited` and `ran` ms per wall ms since `startMs`. */
function counters(startMs: number, waited: number, ran: number): () => CpuTimes {
  return () => {
    const wallMs = performance.now() - startMs;
    return { waitedMs: wallMs * waited, ranMs: wallMs * ran };
  };
}

/** The first scheduled deadline of an interval schedule on `clock`: when it came (wall ms), its due and credit. */
function firstDeadline(clock: CpuAvailableClock, startMs: number, everyMs: number) {
  return new Promise<{ wallMs: number; dueMs: number; cpuWaitMs: number; clockMs: number }>((resolve) => {
    const timer = new ScheduleTimer(
      clock,
      scheduleFor({ mode: 'interval', everyMs })!,
      () => null,
      (dueMs, cpuWaitMs) => {
        timer.stop();
        resolve({ wallMs: performance.now() - startMs, dueMs, cpuWaitMs, clockMs: clock.now() });
      },
    );
    timer.start();
  });
}

describe('the CPU-available clock of a monitor schedule', () => {
  it('runs on wall time when the processes never wait for a core', async () => {
    const start = performance.now();
    const tick = await firstDeadline(new CpuAvailableClock(start, counters(start, 0, 0.5)), start, 100);
    expect(tick.dueMs).toBe(100);
    expect(tick.cpuWaitMs).toBe(0);
    expect(tick.wallMs).toBeGreaterThanOrEqual(99);
  });

  it('moves a deadline by the time the load kept the processes from a core', async () => {
    const start = performance.now();
    // runnable half the time, barely running: the load held the cores
    const tick = await firstDeadline(new CpuAvailableClock(start, counters(start, 0.5, 0.01)), start, 100);
    expect(tick.dueMs).toBe(100);
    expect(tick.clockMs).toBeGreaterThanOrEqual(99);
    // the wall time a quiet machine would have given them, plus what the load took away
    expect(tick.cpuWaitMs).toBeGreaterThan(80);
    expect(tick.wallMs).toBeGreaterThanOrEqual(tick.dueMs + tick.cpuWaitMs - 1);
    expect(tick.wallMs).toBeGreaterThan(180);
  });

  it('credits nothing for a wait the processes cause themselves by keeping every core busy', async () => {
    const start = performance.now();
    const everyCore = availableParallelism();
    const clock = new CpuAvailableClock(start, counters(start, 0.9, everyCore));
    const tick = await firstDeadline(clock, start, 100);
    expect(tick.dueMs).toBe(100);
    expect(tick.cpuWaitMs).toBe(0);
    // nothing credited, however long the timer took on this machine: the clock keeps to the wall, at the tick and at
    // every earlier moment. A clock that credited their own wait would fall 90 ms behind every 100; this one falls
    // behind only by the moments between reading the wall and the counters, which a tenth of the wall bounds.
    const slack = tick.wallMs / 10;
    expect(clock.creditMs).toBeLessThan(slack);
    expect(tick.clockMs).toBeGreaterThan(tick.wallMs - slack);
    expect(clock.at(tick.wallMs / 2)).toBeGreaterThan(tick.wallMs / 2 - slack / 2);
    expect(clock.lostBy(tick.wallMs)).toBeLessThan(slack);
  });

  it('never runs slower than a third of the wall clock, however long the wait', async () => {
    const start = performance.now();
    const clock = new CpuAvailableClock(start, counters(start, 1, 0));
    const tick = await firstDeadline(clock, start, 100);
    expect(tick.wallMs).toBeGreaterThanOrEqual(299);
    expect(tick.clockMs).toBeGreaterThanOrEqual(99);
    expect(tick.clockMs).toBeLessThan(tick.wallMs / 2);
  });

  it('places an earlier wall time (the last output) on the clock between the looks around it', async () => {
    const start = performance.now();
    const clock = new CpuAvailableClock(start, counters(start, 0.5, 0));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = clock.now();
    const wallNow = performance.now() - start;
    // half the wall time was taken by the load, evenly: half of any earlier moment is left on the clock
    expect(now).toBeCloseTo(wallNow / 2, 0);
    expect(clock.at(wallNow / 2)).toBeCloseTo(wallNow / 4, 0);
    expect(clock.at(0)).toBe(0);
  });
});
