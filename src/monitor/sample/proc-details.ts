import type { ProcessSample } from '../../types/process.js';
import { fdNumbers, fdTarget, readThreadFile, threadIds } from '../../proc/index.js';
import type { ProcHandles } from './proc-handles.js';
import {
  parseIo,
  parseStat,
  parseStorageIo,
  parseSyscall,
  parseSyscallArgs,
  parseWchan,
  type StatFields,
} from '../../proc/index.js';
import { processArgs } from './process-args.js';

const MAX_ARGS_CHARS = 200;
// Bounds the cost of a sample for a process with thousands of fds or threads; totals stay exact.
const MAX_FD_LINKS = 256;
const MAX_THREADS = 64;
const MAX_DESCRIBED_THREADS = 16;

/** What a sample shows of a process beyond its stat line: one pread per kept file, the fd list, thread wait channels. */
export type ProcDetails = Pick<
  ProcessSample,
  'args' | 'wchan' | 'threadWchans' | 'otherThreads' | 'readBytes' | 'writeBytes' | 'syscall' | 'fds'
> & {
  readonly stdinLink: string | null;
  /** pipe, socket and regular-file descriptors with their targets, for the wait-for relations (never in a trace). */
  readonly links: readonly FdLink[];
  /** every argument of the blocked syscall (poll's array, openat's path pointer), read in the same pread. */
  readonly syscallArgs: readonly number[];
  /** read_bytes/write_bytes: what reached storage. */
  readonly storage: { readonly read: number; readonly write: number };
};

export interface FdLink {
  readonly fd: number;
  readonly target: string;
}

/** Descriptors kept per process for the relations; a process with more shows the first ones. */
const MAX_KEPT_LINKS = 64;
/** a terminal: a pty slave or a tty, the output of a command run in pty mode. */
const TERMINAL = /^\/dev\/(pts\/\d+|tty\w*)$/;

export function readDetails(pid: number, stat: StatFields, treeSize: number, handles: ProcHandles): ProcDetails {
  const fds = countFds(pid);
  const io = handles.read(pid, 'io') ?? '';
  const syscall = handles.read(pid, 'syscall') ?? '';
  return {
    args: processArgs(pid, stat, treeSize, MAX_ARGS_CHARS, () => handles.read(pid, 'cmdline', 'utf8')),
    wchan: parseWchan(handles.read(pid, 'wchan')),
    ...threadsOf(pid, stat.threads),
    ...parseIo(io),
    syscall: parseSyscall(syscall),
    fds: fds.counts,
    stdinLink: fds.stdin,
    links: fds.links,
    syscallArgs: parseSyscallArgs(syscall),
    storage: parseStorageIo(io),
  };
}

type OtherThread = NonNullable<ProcessSample['otherThreads']>[number];

/**
 * The threads besides the main one: every wait channel (up to MAX_THREADS), and the first MAX_DESCRIBED_THREADS one by
 * one with name, state and blocked syscall (four small reads a thread, so a pool of hundreds stays cheap).
 */
function threadsOf(pid: number, count: number): Pick<ProcDetails, 'threadWchans' | 'otherThreads'> {
  if (count <= 1) return { threadWchans: [] };
  const wchans: string[] = [];
  const described: OtherThread[] = [];
  for (const tid of threadIds(pid).slice(0, MAX_THREADS + 1)) {
    if (tid === String(pid) || wchans.length >= MAX_THREADS) continue;
    const wchan = readThreadFile(pid, tid, 'wchan');
    if (wchan === null) continue;
    wchans.push(parseWchan(wchan));
    if (described.length >= MAX_DESCRIBED_THREADS) continue;
    const stat = parseStat(readThreadFile(pid, tid, 'stat') ?? '');
    if (stat !== null)
      described.push({
        tid: threadIdInside(pid, Number(tid)),
        name: stat.command,
        state: stat.state,
        wchan: parseWchan(wchan),
        syscall: parseSyscall(readThreadFile(pid, tid, 'syscall') ?? ''),
      });
  }
  return { threadWchans: wchans, otherThreads: described };
}

/** The tid in the innermost PID namespace (the last NSpid entry), as the command's own tools would print it. */
function threadIdInside(pid: number, tid: number): number {
  const line = /^NSpid:\s*(.+)$/m.exec(readThreadFile(pid, tid, 'status') ?? '')?.[1];
  const inner = Number(line?.trim().split(/\s+/).at(-1));
  return Number.isInteger(inner) && inner > 0 ? inner : tid;
}

/** Pipe, socket, terminal and total descriptor counts, and where fd 0 points (read in the same pass). */
function countFds(pid: number): {
  readonly counts: ProcessSample['fds'];
  readonly stdin: string | null;
  readonly links: FdLink[];
} {
  const fds = fdNumbers(pid);
  let pipes = 0;
  let sockets = 0;
  let terminals = 0;
  let stdin: string | null = null;
  const links: FdLink[] = [];
  for (const fd of fds.slice(0, MAX_FD_LINKS)) {
    const target = fdTarget(pid, Number(fd)) ?? '';
    if (fd === '0') stdin = target;
    if (target.startsWith('pipe:')) pipes++;
    else if (target.startsWith('socket:')) sockets++;
    else if (TERMINAL.test(target)) {
      terminals++;
      continue;
    } else if (!target.startsWith('/') || /^\/(dev|proc|sys)\//.test(target)) continue;
    if (links.length < MAX_KEPT_LINKS) links.push({ fd: Number(fd), target });
  }
  // fd 0 past the cap (listing order is numeric, so only with a huge table) is read on its own.
  if (stdin === null && fds.includes('0')) stdin = fdTarget(pid, 0);
  return { counts: { pipes, sockets, terminals, total: fds.length }, stdin, links };
}
