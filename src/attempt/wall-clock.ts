import { availableParallelism } from 'node:os';
import { DEFAULTS } from '../defaults.js';
import { loadCreditMs } from '../proc/index.js';
import type { CpuTimes } from '../sandbox/index.js';

/** When the wall budget ran out: the agent phase's ms so far, and the CPU wait that had moved the deadline. */
export interface WallExpiry {
  readonly elapsedMs: number;
  readonly cpuWaitMs: number;
}

/**
 * The wall budget in CPU-available time: every ms the attempt's processes wait runnable for a core that something else
 * holds moves its end by a ms, up to `wallMs × (cap − 1)` in all. A hang that waits on a pipe, a lock or a sleep is not
 * runnable, so it meets its budget on schedule on a busy machine; a healthy program that a busy machine slows still
 * gets the time a quiet one would have given it.
 *
 * A wait the attempt causes itself is not credited: between two looks the wait counts in the share of the machine the
 * attempt did not use (`1 − ran / (elapsed × cores)`), so processes that keep every core busy, its own children
 * contending with each other, move nothing. On a quiet machine no command of the agent's can move the budget.
 */
export class FairWallClock {
  readonly #wallMs: number;
  readonly #capMs: number;
  readonly #cores = availableParallelism();
  readonly #cpuTimes: () => CpuTimes;
  readonly #started = performance.now();
  #timer: NodeJS.Timeout | undefined;
  #last: { readonly at: number; readonly times: CpuTimes };
  #creditMs = 0;
  #stopped = false;

  constructor(wallMs: number, cpuTimes: () => CpuTimes, onExpired: (expiry: WallExpiry) => void) {
    this.#wallMs = wallMs;
    this.#capMs = wallMs * (DEFAULTS.wallCpuWaitCap - 1);
    this.#cpuTimes = cpuTimes;
    this.#last = { at: this.#started, times: cpuTimes() };
    const check = (): void => {
      this.#look();
      const elapsedMs = performance.now() - this.#started;
      const left = this.#wallMs + this.#creditMs - elapsedMs;
      if (left <= 0) {
        this.#stopped = true;
        onExpired({ elapsedMs: Math.round(elapsedMs), cpuWaitMs: Math.round(this.#creditMs) });
        return;
      }
      // A look every wallSampleMs from the start: each one weighs the wait since the last by the share left to others.
      this.#timer = setTimeout(check, Math.max(1, Math.min(left, DEFAULTS.wallSampleMs)));
    };
    this.#timer = setTimeout(check, Math.min(wallMs, DEFAULTS.wallSampleMs));
  }

  /** ms the deadline has moved so far (capped); fixed once the budget ran out or the clock was stopped. */
  credit(): number {
    if (!this.#stopped) this.#look();
    return this.#creditMs;
  }

  /** The agent phase is over: the budget no longer runs; `credit()` stays what it was now. */
  stop(): void {
    clearTimeout(this.#timer);
    if (!this.#stopped) this.#look();
    this.#stopped = true;
  }

  #look(): void {
    const at = performance.now();
    const times = this.#cpuTimes();
    const spanMs = at - this.#last.at;
    const waitedMs = times.waitedMs - this.#last.times.waitedMs;
    const ranMs = times.ranMs - this.#last.times.ranMs;
    this.#last = { at, times };
    this.#creditMs = Math.min(this.#capMs, this.#creditMs + loadCreditMs(spanMs, waitedMs, ranMs, this.#cores));
  }
}
