import type { ModeSchedule } from '../../modes/index.js';
import type { CpuAvailableClock } from './cpu-clock.js';

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
 * Drives a mode's schedule with one timer at a time, on absolute deadlines on the command's CPU-available clock (ms
 * since its start, less what the load took away: see CpuAvailableClock). When the timer fires it re-asks the schedule,
 * so output that arrived meanwhile can push a no-output deadline back without any timer work per chunk of output; a
 * deadline the clock has not reached yet (the load slowed it) is armed again for what is left.
 */
export class ScheduleTimer {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly clock: CpuAvailableClock;
  private readonly schedule: ModeSchedule;
  private readonly lastOutputMs: () => number | null;
  private readonly onDeadline: (dueMs: number, cpuWaitMs: number) => void;

  /** `lastOutputMs` in wall ms since the start; `onDeadline` gets the deadline and the clock's credit when it came. */
  constructor(
    clock: CpuAvailableClock,
    schedule: ModeSchedule,
    lastOutputMs: () => number | null,
    onDeadline: (dueMs: number, cpuWaitMs: number) => void,
  ) {
    this.clock = clock;
    this.schedule = schedule;
    this.lastOutputMs = lastOutputMs;
    this.onDeadline = onDeadline;
  }

  start(): void {
    this.arm(this.clock.now());
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * When the last output came, on the schedule's clock, in whole ms: deadlines counted from it are then whole ms too,
   * and two of them a number of periods apart differ by exactly that many periods (no float remainder in the trace).
   */
  private lastOutput(): number | null {
    const wallMs = this.lastOutputMs();
    return wallMs === null ? null : Math.round(this.clock.at(wallMs));
  }

  private arm(nowMs: number): void {
    if (this.stopped) return;
    const at = this.schedule.next(nowMs, this.lastOutput());
    if (at === null) return;
    this.timer = setTimeout(() => this.fire(at), this.clock.wallFor(at - nowMs));
  }

  private fire(armedAt: number): void {
    this.timer = null;
    if (this.stopped) return;
    const now = this.clock.now();
    const due = this.schedule.next(armedAt - EARLY_MS, this.lastOutput());
    if (due !== null && due <= now + EARLY_MS) {
      this.schedule.served(due);
      this.onDeadline(due, Math.round(this.clock.creditMs));
    }
    this.arm(now);
  }
}
