import { readProcFile } from './read.js';

/**
 * Run-queue wait and run time of a changing set of processes, each counted from its birth (the whole of its
 * /proc/<pid>/schedstat as last seen): the processes watched are born after the watch began (a command's, an
 * attempt's), so a wait before a process was first seen — its exec on a loaded machine — counts too. A process that
 * lives and dies between two looks is not seen at all.
 */
export class RunQueueWait {
  readonly #last = new Map<number, Schedstat>();

  /** ms the seen processes waited runnable for a core. */
  get ms(): number {
    return this.#total('queuedNs') / 1e6;
  }

  /** ms the seen processes ran on a core. */
  get ranMs(): number {
    return this.#total('ranNs') / 1e6;
  }

  sample(pids: readonly number[]): void {
    for (const pid of pids) {
      const [ranNs, queuedNs] = (readProcFile(`/proc/${pid}/schedstat`) ?? '').split(' ').map(Number);
      if (!Number.isFinite(ranNs) || !Number.isFinite(queuedNs)) continue;
      this.#last.set(pid, { ranNs: ranNs!, queuedNs: queuedNs! });
    }
  }

  #total(field: keyof Schedstat): number {
    let ns = 0;
    for (const last of this.#last.values()) ns += last[field];
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

/**
 * The part of a run-queue wait that the load took away, over one span between two looks: the wait (never more than
 * the span) weighed by the share of the machine the watched processes did not use themselves (`1 − ran / (span ×
 * cores)`). Processes that keep every core busy, contending with each other, are credited nothing: on a quiet machine
 * no command can buy itself time.
 */
export function loadCreditMs(spanMs: number, waitedMs: number, ranMs: number, cores: number): number {
  if (spanMs <= 0 || waitedMs <= 0) return 0;
  const othersShare = Math.max(0, 1 - ranMs / (spanMs * cores));
  return Math.min(waitedMs, spanMs) * othersShare;
}
