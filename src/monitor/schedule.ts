/**
 * Tick deadlines at start + n·interval on the performance.now() clock. Each deadline is computed
 * from the start, never chained from the previous tick, so lateness does not accumulate; deadlines
 * missed while the event loop was busy are skipped, so a late tick is never followed by a burst.
 */

/**
 * `SandboxProcess.startedAt` on the performance.now() clock. The monitor's contract says
 * performance.now() at spawn, but the sandbox records Date.now(); an epoch value (never below
 * performance.timeOrigin, which a process-relative value cannot reach) is converted.
 */
export function monotonicStart(startedAt: number): number {
  return startedAt >= performance.timeOrigin ? startedAt - performance.timeOrigin : startedAt;
}

export interface Deadline {
  /** n in start + n·interval. */
  readonly index: number;
  readonly at: number;
}

/** The first deadline after both `lastIndex` and `now`. */
export function nextDeadline(startMs: number, intervalMs: number, nowMs: number, lastIndex: number): Deadline {
  const due = Math.floor((nowMs - startMs) / intervalMs) + 1;
  const index = Math.max(lastIndex + 1, due);
  return { index, at: startMs + index * intervalMs };
}

/** Calls `onDeadline` at each deadline until stopped; one timer at a time. */
export class DeadlineTimer {
  private timer: NodeJS.Timeout | null = null;
  private lastIndex = 0;
  private stopped = false;
  private readonly startMs: number;
  private readonly intervalMs: number;
  private readonly onDeadline: () => void;

  constructor(startMs: number, intervalMs: number, onDeadline: () => void) {
    this.startMs = startMs;
    this.intervalMs = intervalMs;
    this.onDeadline = onDeadline;
    if (!(intervalMs > 0)) throw new RangeError(`tick interval must be a positive number of ms, got ${intervalMs}`);
  }

  start(): void {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    const now = performance.now();
    const deadline = nextDeadline(this.startMs, this.intervalMs, now, this.lastIndex);
    this.lastIndex = deadline.index;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      this.onDeadline();
      this.schedule();
    }, Math.max(0, deadline.at - now));
  }
}
