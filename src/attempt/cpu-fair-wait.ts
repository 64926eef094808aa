import { RunQueueWait } from '../proc/index.js';
import { DEFAULTS } from '../defaults.js';

/** How a wait for a command's exit ended, and how long its processes were kept from a CPU meanwhile. */
export interface FairWaitResult {
  readonly timedOut: boolean;
  /** ms the command's processes waited runnable on a run queue during the wait (schedstat): time the load took away. */
  readonly cpuWaitMs: number;
  /** the deadline as it ended: the timeout plus that wait, capped. */
  readonly deadlineMs: number;
  /** ms its processes ran on a CPU during the wait (schedstat), as far as the 50 ms looks saw them. */
  readonly cpuMs: number;
  /** the wait for a CPU filled the cap: the machine stayed saturated, and the deadline could move no further. */
  readonly saturated: boolean;
}

/** What the wait needs of a running command: its live processes and its exit. */
export interface WaitedCommand {
  readonly exited: Promise<unknown>;
  pids(): number[];
}

/**
 * Waits for `command` to exit within `timeoutMs` of CPU-available time: every ms its processes spend runnable but
 * waiting for a core (a loaded machine) moves the deadline by a ms, up to `timeoutMs × verifyCpuWaitCap` in all.
 * A hung program is blocked, not runnable, so it times out on schedule whatever the load; a fixed one that a busy
 * machine slows gets the CPU time a quiet machine would have given it. Neither outcome depends on the load.
 * `cap` 1 measures the wait without moving the deadline (a gate: its time is the agent's, bounded by the wall budget).
 */
export async function waitFairly(
  command: WaitedCommand,
  timeoutMs: number,
  signal?: AbortSignal,
  cap: number = DEFAULTS.verifyCpuWaitCap,
): Promise<FairWaitResult> {
  const queued = new RunQueueWait();
  const capMs = timeoutMs * cap;
  const started = performance.now();
  let done = false;
  void command.exited.finally(() => (done = true));
  const deadline = (): number => Math.min(capMs, timeoutMs + queued.ms);
  // One listener for the whole wait: a sampling sleep per 50 ms would pile listeners on the attempt's signal.
  let onAbort = (): void => undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    while (!done && !signal?.aborted) {
      queued.sample(command.pids());
      const left = deadline() - (performance.now() - started);
      if (left <= 0) break;
      await Promise.race([command.exited, aborted, sleep(Math.min(left, DEFAULTS.cpuWaitSampleMs))]);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return {
    timedOut: !done && !signal?.aborted,
    cpuWaitMs: Math.round(queued.ms),
    deadlineMs: Math.round(deadline()),
    cpuMs: Math.round(queued.ranMs),
    saturated: cap > 1 && timeoutMs + queued.ms >= capMs,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
