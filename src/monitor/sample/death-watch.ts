import { constants } from 'node:os';
import type { ProcessEnd } from '../../types/process.js';
import { childrenOf, innerPid, parseCmdline, readPidFile, readStat, type StatFields } from '../../proc/index.js';

/** Live processes looked at per look: a fork loop of hundreds costs no more than a tree of a few dozen. */
const MAX_WATCHED = 64;
const MAX_ARGS_CHARS = 200;

interface Known {
  readonly startTicks: number;
  readonly command: string;
  readonly args: string;
  readonly ppid: number;
  readonly innerPid: number | null;
  lastSeenMs: number;
}

/**
 * Every process of a command's tree that ends while the command runs, from looks at /proc (at every tick and between
 * them): the processes seen alive, and their children — which include the zombies the sandbox's listing leaves out. A
 * zombie's stat still holds the status its parent's wait(2) will get (exit code or signal); a process already reaped
 * at the next look is recorded as gone, how it ended unknown. One that is born and reaped between two looks is not
 * seen at all.
 */
export class DeathWatch {
  private readonly alive = new Map<number, Known>();
  /** `pid:startTicks` of zombies already recorded, so a zombie that stays is recorded once. */
  private readonly recorded = new Set<string>();
  private readonly ended: ProcessEnd[] = [];
  private reported = 0;
  private readonly startedAt: number;

  /** `startedAt` on the performance.now() clock. */
  constructor(startedAt: number) {
    this.startedAt = startedAt;
  }

  /** One look: `pids` are the tree's live processes where the caller listed them (a tick), else those known. */
  look(pids: readonly number[] = [], now = performance.now()): void {
    const atMs = Math.round(now - this.startedAt);
    const watched = [...new Set([...pids, ...this.alive.keys()])].slice(0, MAX_WATCHED);
    const candidates = new Set(watched);
    for (const pid of watched) for (const child of childrenOf(pid) ?? []) candidates.add(child);
    for (const pid of candidates) this.lookAt(pid, atMs);
  }

  /** Processes seen ending since the last call (what the next tick's snapshot carries). */
  takeNew(): ProcessEnd[] {
    const fresh = this.ended.slice(this.reported);
    this.reported = this.ended.length;
    return fresh;
  }

  /** Every end seen so far, in the order seen. */
  all(): readonly ProcessEnd[] {
    return this.ended;
  }

  private lookAt(pid: number, atMs: number): void {
    const stat = readStat(pid);
    const known = this.alive.get(pid);
    if (known && (stat === null || stat.startTicks !== known.startTicks)) {
      this.alive.delete(pid);
      this.ended.push(endOf(pid, known, atMs, null));
    }
    if (stat === null) return;
    if (stat.state === 'Z' || stat.state === 'X') {
      const key = `${pid}:${stat.startTicks}`;
      if (this.recorded.has(key)) return;
      this.recorded.add(key);
      this.alive.delete(pid);
      this.ended.push(endOf(pid, known ?? firstSight(pid, stat, atMs), atMs, stat.exitStatus));
      return;
    }
    const same = this.alive.get(pid);
    if (same) same.lastSeenMs = atMs;
    else this.alive.set(pid, firstSight(pid, stat, atMs));
  }
}

function firstSight(pid: number, stat: StatFields, atMs: number): Known {
  const cmdline = readPidFile(pid, 'cmdline', 'utf8');
  const inner = innerPid(pid);
  return {
    startTicks: stat.startTicks,
    command: stat.command,
    args: cmdline ? parseCmdline(cmdline, MAX_ARGS_CHARS) : stat.command,
    ppid: stat.ppid,
    innerPid: inner === pid ? null : inner,
    lastSeenMs: atMs,
  };
}

/** `status` as wait(2) reports it (a zombie's stat field 52), or null when the process was already reaped. */
function endOf(pid: number, known: Known, atMs: number, status: number | null): ProcessEnd {
  const base = {
    pid,
    ...(known.innerPid === null ? {} : { innerPid: known.innerPid }),
    ppid: known.ppid,
    command: known.command,
    args: known.args,
    endedMs: atMs,
    lastSeenMs: known.lastSeenMs,
  };
  if (status === null) return { ...base, seen: 'gone', exitCode: null, signal: null };
  const signal = status & 0x7f;
  if (signal === 0) return { ...base, seen: 'zombie', exitCode: (status >> 8) & 0xff, signal: null };
  return { ...base, seen: 'zombie', exitCode: null, signal: signalName(signal), coreDumped: (status & 0x80) !== 0 };
}

function signalName(signal: number): string {
  return Object.entries(constants.signals).find(([, number]) => number === signal)?.[0] ?? `signal ${signal}`;
}
