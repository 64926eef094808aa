import type { ModeSchedule } from '../../modes/index.js';

/**
 * `SandboxProcess.startedAt` on the performance.now() clock. The monitor's contract says
 * performance.now() at spawn, but the sandbox records Date.now(); an epoch value (never below
 * performance.timeOrigin, which a process-relative value cannot reach) is converted.
 */
export function monotonicStart(startedAt: number): number {
  return startedAt >= performance.timeOrigin ? startedAt - performance.timeOrigin : startedAt;
}

/** Node's timers have millisecond resolution and may fire this much before a fractional deadline. */
const EARLY_MS = 1;

/**
 * Drives a mode's schedule with one timer at a time, on absolute deadlines (ms since `startMs`). When the timer
 * fires it re-asks the schedule, so output that arrived meanwhile can push a no-output deadline back without any
 * timer work per chunk of output.
 */
export class ScheduleTimer {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly startMs: number;
  private readonly schedule: ModeSchedule;
  private readonly lastOutputMs: () => number | null;
  private readonly onDeadline: (dueMs: number) => void;

  constructor(
    startMs: number,
    schedule: ModeSchedule,
    lastOutputMs: () => number | null,
    onDeadline: (dueMs: number) => void,
  ) {
    this.startMs = startMs;
    this.schedule = schedule;
    this.lastOutputMs = lastOutputMs;
    this.onDeadline = onDeadline;
  }

  start(): void {
    this.arm(this.elapsed());
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private elapsed(): number {
    return performance.now() - this.startMs;
  }

  private arm(afterMs: number): void {
    if (this.stopped) return;
    const at = this.schedule.next(afterMs, this.lastOutputMs());
    if (at === null) return;
    this.timer = setTimeout(() => this.fire(at), Math.max(0, at - this.elapsed()));
  }

  private fire(armedAt: number): void {
    this.timer = null;
    if (this.stopped) return;
    const now = this.elapsed();
    const due = this.schedule.next(armedAt - EARLY_MS, this.lastOutputMs());
    if (due !== null && due <= now + EARLY_MS) {
      this.schedule.served(due);
      this.onDeadline(due);
    }
    this.arm(now);
  }
}
