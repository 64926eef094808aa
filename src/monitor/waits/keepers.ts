import type { Keeper, ProcessSample, WaitRelation } from '../../types/process.js';
import { fdTarget, readFdInfo, workingDirs } from '../../proc/index.js';
import { seconds } from '../../types/units.js';
import { SYSCALL_NR } from '../sample/syscall-names.js';
import type { SocketTables } from './socket-tables.js';
import type { Diagnosis } from './diagnosis.js';

/**
 * What keeps an idle event loop alive, from /proc alone: the descriptors its epoll instance watches (fdinfo `tfd:`
 * lines) that are a listening or connected TCP socket, an inotify instance or an armed timerfd; its worker threads idle
 * in event loops of their own; and, where the interest list holds none of those, the wait's own timeout (a timer).
 */

type Idle = Extract<WaitRelation, { kind: 'idle' }>;

const nr = (name: string): number => SYSCALL_NR[name] ?? -1;
const EPOLL_WAITS = new Set(['epoll_wait', 'epoll_pwait'].map(nr));
const EPOLL_PWAIT2 = nr('epoll_pwait2');
/** epoll_wait's timeout is an int: -1 reads 0xffffffff in the syscall file. */
const INFINITE = 0x80000000;
/**
 * Node runs one thread with an event loop of its own in every process (its platform's delayed-task loop: a bare
 * `setInterval` process shows it), so that one is no worker.
 */
const OWN_LOOP_THREADS: Readonly<Record<string, number>> = { node: 1 };
/** Watched directories named in a tick; the rest are counted. */
const NAMED_PATHS = 3;
/** Directories below the cwd compared with an inotify watch's inode. */
const MAX_DIRS = 64;

export function idleRelation(
  process: ProcessSample,
  args: readonly number[],
  sockets: () => SocketTables,
): Idle | null {
  const call = process.syscall;
  if (process.state !== 'S' || process.cpuPercent >= 5 || call === null) return null;
  if (!EPOLL_WAITS.has(call.nr) && call.nr !== EPOLL_PWAIT2) return null;
  const keepers: Keeper[] = [];
  let dirs: ReturnType<typeof workingDirs> | undefined;
  for (const fd of interestList(process.pid, call.arg0)) {
    const target = fdTarget(process.pid, fd) ?? '';
    const socket = /^socket:\[(\d+)\]$/.exec(target);
    if (socket) {
      const line = sockets().get(Number(socket[1]));
      if (line?.state === 'LISTEN') keepers.push({ what: 'listen', address: line.local });
      else if (line?.state === 'ESTABLISHED') keepers.push({ what: 'connection', peer: line.peer });
    } else if (target === 'anon_inode:inotify') {
      dirs ??= workingDirs(process.pid, MAX_DIRS);
      const watch = inotifyWatches(readFdInfo(process.pid, fd) ?? '', dirs);
      if (watch) keepers.push(watch);
    } else if (target === 'anon_inode:[timerfd]') {
      const timer = timerfd(readFdInfo(process.pid, fd) ?? '');
      if (timer) keepers.push(timer);
    }
  }
  const loops = process.threadWchans.filter((wchan) => /epoll/.test(wchan)).length;
  const workers = loops - (OWN_LOOP_THREADS[process.command] ?? 0);
  if (workers > 0) keepers.push({ what: 'threads', count: workers });
  const timeout = args[3] ?? INFINITE;
  if (keepers.length === 0 && call.nr !== EPOLL_PWAIT2 && timeout < INFINITE)
    keepers.push({ what: 'timer', dueMs: timeout });
  return keepers.length > 0 ? { kind: 'idle', pid: process.pid, keepers } : null;
}

/** The descriptors an epoll instance watches (`tfd: 5 events: 19 …` lines of its fdinfo). */
function interestList(pid: number, epfd: number): number[] {
  const text = readFdInfo(pid, epfd) ?? '';
  return [...text.matchAll(/^tfd:\s+(\d+)/gm)].map((match) => Number(match[1]));
}

/**
 * An inotify instance's watches (`inotify wd:1 ino:20e2f3 sdev:fe00000 …`), and the watched directories that are the
 * cwd or right below it. sdev is the kernel's dev_t (major << 20 | minor); stat(2) gives the user-space encoding.
 */
export function inotifyWatches(
  fdinfo: string,
  dirs: ReadonlyArray<{ readonly path: string; readonly dev: number; readonly ino: number }>,
): Keeper | null {
  const watches = [...fdinfo.matchAll(/^inotify wd:\d+ ino:([0-9a-f]+) sdev:([0-9a-f]+)/gm)];
  if (watches.length === 0) return null;
  const paths = watches.flatMap((watch) => {
    const ino = Number.parseInt(watch[1] ?? '', 16);
    const kernelDev = Number.parseInt(watch[2] ?? '', 16);
    const major = Math.floor(kernelDev / 2 ** 20);
    const minor = kernelDev % 2 ** 20;
    const dev = (minor & 0xff) + major * 256 + Math.floor(minor / 256) * 2 ** 20;
    return dirs.filter((dir) => dir.ino === ino && dir.dev === dev).map((dir) => dir.path);
  });
  return { what: 'inotify', watches: watches.length, paths: [...new Set(paths)].sort() };
}

/** An armed timerfd from its fdinfo (`it_value: (0, 499000)`, `it_interval: (1, 0)`); null when disarmed. */
export function timerfd(fdinfo: string): Keeper | null {
  const ms = (field: string): number | null => {
    const match = new RegExp(`^${field}:\\s*\\((\\d+),\\s*(\\d+)\\)`, 'm').exec(fdinfo);
    return match ? Number(match[1]) * 1000 + Math.round(Number(match[2]) / 1e6) : null;
  };
  const next = ms('it_value');
  const interval = ms('it_interval') ?? 0;
  // an expired one-shot timer reads it_value (0, 0) like a disarmed one: neither can wake the loop again
  return next === null || (next === 0 && interval === 0)
    ? null
    : { what: 'timerfd', nextMs: next, intervalMs: interval };
}

export function explainIdle(relation: Idle, name: (pid: number) => string): Diagnosis {
  const words = relation.keepers.map(keeperWords);
  const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
  return {
    sentence: `${name(relation.pid)} is idle in its event loop (epoll), kept alive by ${list}`,
    culprit: relation.pid,
    classification: null,
    idleOnly: true,
  };
}

function keeperWords(keeper: Keeper): string {
  switch (keeper.what) {
    case 'listen':
      return `a listening socket on ${keeper.address}`;
    case 'connection':
      return `an open connection to ${keeper.peer}`;
    case 'inotify': {
      const shown = keeper.paths
        .slice(0, NAMED_PATHS)
        .map((path) => (path === '.' ? 'its working directory' : `${path}/`));
      const unnamed = keeper.watches - shown.length;
      const on = shown.length === 0 ? '' : ` on ${shown.join(', ')}${unnamed > 0 ? ` and ${unnamed} more` : ''}`;
      const count = shown.length === 0 && keeper.watches > 1 ? ` (${keeper.watches} watches)` : '';
      return `${keeper.watches === 1 ? 'an inotify watch' : 'inotify watches'}${on}${count}`;
    }
    case 'timerfd':
      return keeper.intervalMs > 0
        ? `a timerfd (every ${seconds(keeper.intervalMs)}, next in ${seconds(keeper.nextMs)})`
        : `a timerfd (due in ${seconds(keeper.nextMs)})`;
    case 'timer':
      return `a timer due in ${seconds(keeper.dueMs)}`;
    case 'threads':
      return `${keeper.count} worker thread${keeper.count === 1 ? '' : 's'} idle in event loops of their own`;
  }
}
