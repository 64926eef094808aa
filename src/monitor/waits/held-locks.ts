import type { ProcessSample } from '../../types/process.js';
import type { FdLink } from '../sample/proc-details.js';
import { readFdInfo } from '../../proc/index.js';

/**
 * Locks held through the tree's own descriptors (`lock:` lines of /proc/<pid>/fdinfo/<fd>, one per lock on that open
 * file description), with the processes of the tree that have the same file open on a descriptor without it. A
 * process that polls for a lock (`until flock -n 8; do sleep 1; done`) never shows in /proc/locks as a waiter; this
 * is how its holder is found.
 */
export interface HeldLock {
  readonly lock: 'flock' | 'posix';
  readonly path: string;
  /** processes holding it, with the descriptor they hold it through. */
  readonly holders: ReadonlyArray<{ readonly pid: number; readonly fd: number }>;
  /** processes with the file open on a descriptor that does not hold the lock: who would wait for it. */
  readonly others: readonly number[];
}

const LOCK_LINE = /^lock:\s+\d+:\s+(FLOCK|POSIX|OFDLCK)\s/m;
/** Regular files looked at per process: a lock file is among the first a script opens. */
const MAX_FILES = 16;

export function heldLocks(processes: readonly ProcessSample[], links: (pid: number) => readonly FdLink[]): HeldLock[] {
  const byPath = new Map<
    string,
    { lock: 'flock' | 'posix' | null; holders: Array<{ pid: number; fd: number }>; without: Set<number> }
  >();
  for (const process of processes) {
    if (process.state === 'Z') continue;
    for (const link of links(process.pid)
      .filter((l) => l.target.startsWith('/') && !l.target.startsWith('/dev/'))
      .slice(0, MAX_FILES)) {
      const info = readFdInfo(process.pid, link.fd);
      if (info === null) continue;
      const entry = byPath.get(link.target) ?? { lock: null, holders: [], without: new Set<number>() };
      const match = LOCK_LINE.exec(info);
      if (match) {
        entry.lock = match[1] === 'FLOCK' ? 'flock' : 'posix';
        entry.holders.push({ pid: process.pid, fd: link.fd });
      } else {
        entry.without.add(process.pid);
      }
      byPath.set(link.target, entry);
    }
  }
  const out: HeldLock[] = [];
  for (const [path, entry] of byPath) {
    if (entry.lock === null || entry.without.size === 0) continue;
    out.push({ lock: entry.lock, path, holders: entry.holders, others: [...entry.without] });
  }
  return out;
}
