import { machineCpuLine } from '../proc/index.js';
import { availableParallelism } from 'node:os';

/** Jiffies of the machine's `cpu` line in /proc/stat: idle (idle + iowait) and all. */
interface CpuTimes {
  readonly idle: number;
  readonly total: number;
}

function readCpuTimes(): CpuTimes | null {
  const line = machineCpuLine();
  if (line === null) return null;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user and nice)
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { idle: fields[3]! + (fields[4] ?? 0), total };
}

/**
 * How many cores the machine left idle over the last few samples, from /proc/stat: what the scheduler asks before it
 * starts another agent CLI's boot. Where /proc/stat cannot be read (not Linux) it says Infinity: nothing is held back.
 */
export class IdleCpu {
  readonly #cores: number;
  readonly #window: CpuTimes[] = [];
  readonly #keep: number;

  constructor(keep = 4, cores = availableParallelism()) {
    this.#cores = cores;
    this.#keep = keep;
    this.sample();
  }

  /** Takes one reading; the window keeps the last `keep` of them. */
  sample(): void {
    const times = readCpuTimes();
    if (times === null) return;
    this.#window.push(times);
    if (this.#window.length > this.#keep) this.#window.shift();
  }

  /** Idle cores between the oldest and the newest reading; Infinity before two readings or without /proc/stat. */
  cores(): number {
    const first = this.#window[0];
    const last = this.#window.at(-1);
    if (!first || !last || last.total <= first.total) return Infinity;
    return ((last.idle - first.idle) / (last.total - first.total)) * this.#cores;
  }
}
