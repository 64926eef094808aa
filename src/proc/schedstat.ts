import { readProcFile } from './read.js';

/**
 * Run-queue wait and run time of a changing set of processes: the growth of each one's /proc/<pid>/schedstat since it
 * was first seen. A process that lives and dies between two looks is not seen at all.
 */
export class RunQueueWait {
  readonly #first = new Map<number, Schedstat>();
  readonly #last = new Map<number, Schedstat>();

  /** ms the seen processes waited runnable for a core. */
  get ms(): number {
    return this.#growth('queuedNs') / 1e6;
  }

  /** ms the seen processes ran on a core. */
  get ranMs(): number {
    return this.#growth('ranNs') / 1e6;
  }

  sample(pids: readonly number[]): void {
    for (const pid of pids) {
      const [ranNs, queuedNs] = (readProcFile(`/proc/${pid}/schedstat`) ?? '').split(' ').map(Number);
      if (!Number.isFinite(ranNs) || !Number.isFinite(queuedNs)) continue;
      const now = { ranNs: ranNs!, queuedNs: queuedNs! };
      if (!this.#first.has(pid)) this.#first.set(pid, now);
      this.#last.set(pid, now);
    }
  }

  #growth(field: keyof Schedstat): number {
    let ns = 0;
    for (const [pid, last] of this.#last) ns += last[field] - (this.#first.get(pid) ?? last)[field];
    return ns;
  }
}

/** /proc/<pid>/schedstat's first two fields: ns on a CPU, ns waiting on a run queue. */
interface Schedstat {
  readonly ranNs: number;
  readonly queuedNs: number;
}

/** A cgroup v2's CPU counters, µs: `some total=` of its cpu.pressure and `usage_usec` of its cpu.stat. */
export interface CgroupCpu {
  /**
   * µs some process of the group waited runnable for a core (PSI): it counts every process of the group however short
   * it lived, and a wait of two at once once.
   */
  readonly stallUs: number;
  /** µs its processes ran on a core. */
  readonly usageUs: number;
}

/** Null where either file is missing or unreadable (no cgroup v2, PSI off). */
export function cgroupCpu(cgroupDir: string): CgroupCpu | null {
  const stall = readProcFile(`${cgroupDir}/cpu.pressure`)?.match(/^some .*\btotal=(\d+)/m);
  const usage = readProcFile(`${cgroupDir}/cpu.stat`)?.match(/^usage_usec (\d+)/m);
  return stall && usage ? { stallUs: Number(stall[1]), usageUs: Number(usage[1]) } : null;
}
