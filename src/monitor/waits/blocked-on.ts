import type { ProcessSample } from '../../types/process.js';
import { readFdInfo, readMemory, readMemoryString, readPollFds } from '../../proc/index.js';
import { SYSCALL_NR } from '../sample/syscall-names.js';

/** What a blocked process waits on, from its syscall and arguments: descriptors (and which way), or a FIFO being opened. */
export interface BlockedOn {
  readonly fds: ReadonlyArray<{ readonly fd: number; readonly direction: 'read' | 'write' }>;
  /** openat(2) of a FIFO blocks until the other end is opened (wait_for_partner): the path it opens. */
  readonly opening: string | null;
  /** which end the FIFO is being opened for (from openat's flags). */
  readonly openingFor: 'read' | 'write';
  readonly call: string;
}

const nr = (name: string): number => SYSCALL_NR[name] ?? -1;
const READS = new Set(['read', 'readv', 'pread64', 'recvfrom', 'recvmsg', 'accept', 'accept4', 'connect'].map(nr));
const WRITES = new Set(['write', 'writev'].map(nr));
const POLLS = new Set(['poll', 'ppoll'].map(nr));
const EPOLLS = new Set(['epoll_wait', 'epoll_pwait', 'epoll_pwait2'].map(nr));
const SELECTS = new Set(['select', 'pselect6'].map(nr));
const POLLIN = 0x1;
const POLLOUT = 0x4;
/** Enough fds for any select set we look at (a bitmap of 1024 bits). */
const MAX_SELECT_FDS = 1024;

export function blockedOn(process: ProcessSample, args: readonly number[]): BlockedOn | null {
  const call = process.syscall;
  if (!call || process.state !== 'S') return null;
  const name = callName(call.nr);
  if (READS.has(call.nr))
    return { fds: [{ fd: call.arg0, direction: 'read' }], opening: null, openingFor: 'read', call: name };
  if (WRITES.has(call.nr))
    return { fds: [{ fd: call.arg0, direction: 'write' }], opening: null, openingFor: 'read', call: name };
  if (call.nr === nr('openat') && /wait_for_partner/.test(process.wchan)) {
    const openingFor = ((args[2] ?? 0) & 3) === 1 ? 'write' : 'read';
    return {
      fds: [],
      opening: args[1] === undefined ? null : readMemoryString(process.pid, args[1]),
      openingFor,
      call: name,
    };
  }
  if (POLLS.has(call.nr) && args[0] !== undefined && args[1] !== undefined) {
    const fds = readPollFds(process.pid, args[0], args[1]).flatMap((entry) =>
      directions(entry.fd, entry.events & POLLIN, entry.events & POLLOUT),
    );
    return { fds, opening: null, openingFor: 'read', call: name };
  }
  if (EPOLLS.has(call.nr))
    return { fds: epollTargets(process.pid, call.arg0), opening: null, openingFor: 'read', call: name };
  if (SELECTS.has(call.nr) && args[0] !== undefined) {
    const count = Math.min(args[0], MAX_SELECT_FDS);
    const reads = bitmap(process.pid, args[1], count).map((fd) => ({ fd, direction: 'read' as const }));
    const writes = bitmap(process.pid, args[2], count).map((fd) => ({ fd, direction: 'write' as const }));
    return { fds: [...reads, ...writes], opening: null, openingFor: 'read', call: name };
  }
  return null;
}

function callName(number: number): string {
  return Object.entries(SYSCALL_NR).find(([, value]) => value === number)?.[0] ?? `syscall ${number}`;
}

function directions(fd: number, reads: number, writes: number): Array<{ fd: number; direction: 'read' | 'write' }> {
  const out: Array<{ fd: number; direction: 'read' | 'write' }> = [];
  if (reads) out.push({ fd, direction: 'read' });
  if (writes) out.push({ fd, direction: 'write' });
  return out;
}

/** The descriptors an epoll instance watches, from its fdinfo (`tfd: 5 events: 19 …`). */
function epollTargets(pid: number, epfd: number): Array<{ fd: number; direction: 'read' | 'write' }> {
  const text = readFdInfo(pid, epfd) ?? '';
  const out: Array<{ fd: number; direction: 'read' | 'write' }> = [];
  for (const match of text.matchAll(/^tfd:\s+(\d+)\s+events:\s+([0-9a-f]+)/gm)) {
    const events = Number.parseInt(match[2] ?? '0', 16);
    out.push(...directions(Number(match[1]), events & POLLIN, events & POLLOUT));
  }
  return out;
}

function bitmap(pid: number, address: number | undefined, count: number): number[] {
  if (address === undefined || address === 0) return [];
  const bytes = readMemory(pid, address, Math.ceil(count / 8));
  if (!bytes) return [];
  const fds: number[] = [];
  for (let fd = 0; fd < count && fd < bytes.length * 8; fd++) if (((bytes[fd >> 3] ?? 0) >> (fd & 7)) & 1) fds.push(fd);
  return fds;
}

/** O_ACCMODE of a descriptor from its fdinfo flags (octal): what end of a pipe it is. */
export function accessMode(pid: number, fd: number): 'read' | 'write' | 'both' | null {
  const text = readFdInfo(pid, fd);
  const match = text === null ? null : /^flags:\s+([0-7]+)/m.exec(text);
  if (!match) return null;
  const mode = Number.parseInt(match[1] ?? '0', 8) & 3;
  return mode === 0 ? 'read' : mode === 1 ? 'write' : 'both';
}
