import { availableParallelism } from 'node:os';
import { DEFAULTS } from '../../defaults.js';
import { loadCreditMs, RunQueueWait } from '../../proc/index.js';
import type { CpuTimes } from '../../sandbox/index.js';

/** One look at the counters: wall ms since the start, and the credit (ms the load took away) by then. */
interface Look {
  readonly wallMs: number;
  readonly creditMs: number;
  readonly times: CpuTimes;
}

/** Looks kept for `at()`: a no-output deadline asks about the last output, which is never far back. */
const KEPT_LOOKS = 64;

/**
 * A command's time in CPU-available ms: wall time since its start less the time its processes waited runnable for a
 * core that the load held (`loadCreditMs`), never less than wall / `cap`. A monitor schedule on this clock ticks
 * when the program has had the machine a quiet host would have given it: on a loaded machine a slow start-up is not
 * mistaken for the hang that follows it, and a program that waits on a pipe, a lock or a sleep (not runnable) ticks on
 * wall time whatever the load.
 */
export class CpuAvailableClock {
  readonly #startMs: number;
  readonly #cpuTimes: () => CpuTimes;
  readonly #cap: number;
  readonly #cores = availableParallelism();
  readonly #looks: Look[];

  /** `startMs` on the performance.now() clock; `cpuTimes` the watched processes' counters, growing from the start. */
  constructor(startMs: number, cpuTimes: () => CpuTimes, cap: number = DEFAULTS.wallCpuWaitCap) {
    this.#startMs = startMs;
    this.#cpuTimes = cpuTimes;
    this.#cap = cap;
    this.#looks = [{ wallMs: 0, creditMs: 0, times: cpuTimes() }];
  }

  /** A clock over one command's own processes (their schedstat), for a monitor that is given no counters. */
  static ofProcesses(startMs: number, pids: () => number[]): CpuAvailableClock {
    const queued = new RunQueueWait();
    return new CpuAvailableClock(startMs, () => {
      queued.sample(pids());
      return { waitedMs: queued.ms, ranMs: queued.ranMs };
    });
  }

  /** ms since the start on this clock, from a look at the counters now. */
  now(): number {
    return this.#reading(this.#look());
  }

  /** ms the load has taken away so far (at the last look). */
  get creditMs(): number {
    return this.#last().creditMs;
  }

  /**
   * How far this clock fell behind the wall by `wallMs` (ms since the start): what the load took away by then, as the
   * schedule counts it (the cap applied). A time at or past the last look takes a fresh look first.
   */
  lostBy(wallMs: number): number {
    if (wallMs >= this.#last().wallMs) this.#look();
    return Math.max(0, wallMs - this.at(wallMs));
  }

  /** This clock's reading at an earlier wall time (ms since the start), interpolated between the looks around it. */
  at(wallMs: number): number {
    const looks = this.#looks;
    const after = looks.findIndex((look) => look.wallMs >= wallMs);
    if (after < 0) return this.#reading({ wallMs, creditMs: this.#last().creditMs });
    const later = looks[after]!;
    const earlier = looks[Math.max(0, after - 1)]!;
    const span = later.wallMs - earlier.wallMs;
    const share = span <= 0 ? 1 : (wallMs - earlier.wallMs) / span;
    return this.#reading({ wallMs, creditMs: earlier.creditMs + (later.creditMs - earlier.creditMs) * share });
  }

  /**
   * Wall ms to wait for this clock to advance by `ms`: at least `ms` (it never runs faster than the wall), more at the
   * rate the load took time away over the last span, by no more than 100 ms, so a load that stops makes a tick late by
   * little; the caller looks again when the timer fires.
   */
  wallFor(ms: number): number {
    const looks = this.#looks;
    const last = this.#last();
    const before = looks[looks.length - 2];
    if (ms <= 0) return 0;
    if (!before || last.wallMs <= before.wallMs) return ms;
    const rate = Math.min(1 - 1 / this.#cap, (last.creditMs - before.creditMs) / (last.wallMs - before.wallMs));
    return ms + Math.min(100, (ms * rate) / (1 - rate));
  }

  #reading(look: Pick<Look, 'wallMs' | 'creditMs'>): number {
    return Math.max(look.wallMs - look.creditMs, look.wallMs / this.#cap);
  }

  #last(): Look {
    return this.#looks[this.#looks.length - 1]!;
  }

  #look(): Look {
    const last = this.#last();
    const wallMs = performance.now() - this.#startMs;
    const times = this.#cpuTimes();
    const credit = loadCreditMs(
      wallMs - last.wallMs,
      times.waitedMs - last.times.waitedMs,
      times.ranMs - last.times.ranMs,
      this.#cores,
    );
    const look = { wallMs, creditMs: last.creditMs + credit, times };
    this.#looks.push(look);
    if (this.#looks.length > KEPT_LOOKS) this.#looks.splice(1, 1);
    return look;
  }
}
