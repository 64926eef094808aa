import type { ProcessRef, ProcessSample, WaitRelation } from '../../types/process.js';
import type { FdLink } from '../sample/proc-details.js';
import { fileIdentity, readFdInfo, readLockTable } from '../../proc/index.js';
import { lockFileKey, parseLocks, type LockLine } from './proc-locks.js';

/** The wait channels of a process blocked in flock(2) or fcntl(F_SETLKW / F_OFD_SETLKW). */
export const LOCK_WAIT = /locks_lock|flock_lock|posix_lock|fcntl_setlk|locks_/;
/** A descriptor's fdinfo has one such line per lock held through it (flock and OFD: its open file; POSIX: its process). */
const FDINFO_LOCK = /^lock:\s+\d+:\s+(FLOCK|POSIX|OFDLCK)\s/m;
/** Regular files looked at per process: a lock file or database is among the first a program opens. */
const MAX_FILES = 16;

/** What the lock relations need of a sampled tree. */
export interface LockTree {
  readonly processes: readonly ProcessSample[];
  readonly byPid: ReadonlyMap<number, ProcessSample>;
  readonly links: (pid: number) => readonly FdLink[];
  readonly ref: (process: ProcessSample) => ProcessRef;
}

type LockRelation = Extract<WaitRelation, { kind: 'lock' }>;

/**
 * Who waits for which lock and who holds it, from /proc/locks matched by device:inode to the files the tree has open:
 * a process blocked in the kernel on a lock (a `->` line; an OFD lock's names no pid, so the tree's blocked process
 * with that file open is the waiter), and a `poller` — a process that sleeps and retries with the locked file open
 * (SQLite's busy handler, `until flock -n 9; do sleep 1; done`), which /proc/locks never lists as waiting — whose
 * file another process of the tree holds a lock on. /proc/locks is read only when one of the two exists.
 */
export function lockRelations(tree: LockTree, pollers: readonly ProcessSample[]): LockRelation[] {
  const blocked = tree.processes.filter((process) => LOCK_WAIT.test(process.wchan));
  if (blocked.length === 0 && pollers.length === 0) return [];
  const lines = parseLocks(readLockTable());
  if (lines.length === 0) return [];
  const files = new OpenFiles(tree);
  const out: LockRelation[] = [];
  for (const waiter of lines.filter((line) => line.waiting)) {
    const pids =
      waiter.pid > 0
        ? tree.byPid.has(waiter.pid)
          ? [waiter.pid]
          : []
        : blocked.filter((process) => files.has(process.pid, waiter.file)).map((process) => process.pid);
    const held = lines.filter((line) => !line.waiting && line.id === waiter.id);
    for (const pid of pids) out.push(relationOf(pid, waiter.file, held, files, tree, false));
  }
  const heldByFile = new Map<string, LockLine[]>();
  for (const line of lines.filter((l) => !l.waiting))
    heldByFile.set(line.file, [...(heldByFile.get(line.file) ?? []), line]);
  for (const poller of pollers) {
    if (out.some((relation) => relation.pid === poller.pid)) continue;
    for (const open of files.of(poller.pid)) {
      const held = heldByFile.get(open.key);
      // it holds a lock through this very descriptor: it is not waiting for one on it
      if (!held || files.locksThrough(poller.pid, open.fd)) continue;
      const relation = relationOf(poller.pid, open.key, held, files, tree, true);
      if (relation.holder) {
        out.push(relation);
        break;
      }
    }
  }
  return out;
}

/** The relation of `pid` waiting for a lock on `file`, whose held lines are `held`. */
function relationOf(
  pid: number,
  file: string,
  held: readonly LockLine[],
  files: OpenFiles,
  tree: LockTree,
  polling: boolean,
): LockRelation {
  const line = held.find((l) => l.access === 'write') ?? held[0];
  const holderPid = line && line.pid > 0 ? line.pid : null;
  const holder = holderOf(pid, file, held, files, tree, polling);
  return {
    kind: 'lock',
    pid,
    lock: line?.lock ?? 'posix',
    file,
    path: files.pathOf(pid, file) ?? files.openers(file)[0]?.path ?? null,
    holderPid,
    holder: holder ? tree.ref(holder) : null,
    ...(polling ? { polling: true } : {}),
  };
}

/**
 * The holder, other than the waiter: the pid /proc/locks names when it is of the tree (a POSIX lock's owner, a flock's
 * taker), else the topmost process of the tree holding a lock through a descriptor of that file (an OFD lock names no
 * pid; a flock outlives the `flock` that took it in whoever inherited the descriptor). A process blocked in the kernel
 * falls back to any other opener not itself waiting; a poller gets a holder only on that evidence.
 */
function holderOf(
  waiter: number,
  file: string,
  held: readonly LockLine[],
  files: OpenFiles,
  tree: LockTree,
  polling: boolean,
): ProcessSample | undefined {
  const named = [...held]
    .sort((a, b) => (a.access === 'write' ? 0 : 1) - (b.access === 'write' ? 0 : 1))
    .map((line) => (line.pid !== waiter ? tree.byPid.get(line.pid) : undefined))
    .find((process) => process !== undefined);
  if (named) return named;
  const lockers = files
    .openers(file)
    .filter((open) => open.pid !== waiter && files.locksThrough(open.pid, open.fd))
    .map((open) => open.pid);
  const topmost = lockers.find((pid) => !lockers.includes(tree.byPid.get(pid)?.ppid ?? -1)) ?? lockers[0];
  if (topmost !== undefined) return tree.byPid.get(topmost);
  if (polling) return undefined;
  return files
    .openers(file)
    .map((open) => tree.byPid.get(open.pid))
    .find((process) => process && process.pid !== waiter && !LOCK_WAIT.test(process.wchan));
}

interface OpenFile {
  readonly pid: number;
  readonly fd: number;
  readonly path: string;
  readonly key: string;
}

/** The regular files of the tree by /proc/locks key, each process's stat-ed once and only when asked for. */
class OpenFiles {
  private readonly byPid = new Map<number, OpenFile[]>();
  private all: Map<string, OpenFile[]> | null = null;
  private readonly lockLines = new Map<string, boolean>();
  private readonly tree: LockTree;

  constructor(tree: LockTree) {
    this.tree = tree;
  }

  of(pid: number): OpenFile[] {
    let files = this.byPid.get(pid);
    if (files) return files;
    files = [];
    const links = this.tree
      .links(pid)
      .filter((link) => link.target.startsWith('/') && !link.target.startsWith('/dev/'));
    for (const link of links.slice(0, MAX_FILES)) {
      const identity = fileIdentity(pid, link.fd);
      if (identity?.isFile)
        files.push({ pid, fd: link.fd, path: link.target, key: lockFileKey(identity.dev, identity.ino) });
    }
    this.byPid.set(pid, files);
    return files;
  }

  has(pid: number, key: string): boolean {
    return this.of(pid).some((open) => open.key === key);
  }

  pathOf(pid: number, key: string): string | undefined {
    return this.of(pid).find((open) => open.key === key)?.path;
  }

  openers(key: string): OpenFile[] {
    if (!this.all) {
      this.all = new Map();
      for (const process of this.tree.processes) {
        if (process.state === 'Z') continue;
        for (const open of this.of(process.pid)) this.all.set(open.key, [...(this.all.get(open.key) ?? []), open]);
      }
    }
    return this.all.get(key) ?? [];
  }

  /** A lock is held through this descriptor (its fdinfo has a `lock:` line). */
  locksThrough(pid: number, fd: number): boolean {
    const id = `${pid}:${fd}`;
    let locks = this.lockLines.get(id);
    if (locks === undefined) {
      locks = FDINFO_LOCK.test(readFdInfo(pid, fd) ?? '');
      this.lockLines.set(id, locks);
    }
    return locks;
  }
}
