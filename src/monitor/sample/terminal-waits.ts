import type { ProcessSample } from '../../types/process.js';
import { fdTarget, readFdInfo } from '../../proc/index.js';
import { SYSCALL_NR } from './syscall-names.js';

/** The slave side of a pseudo-terminal, as an fd link shows it. */
export const PTY_SLAVE = /^\/dev\/pts\/\d+$/;

/** How a process waits for a key at the terminal: blocked in a read of it, or idle in a poll that watches it. */
export type TerminalWait = 'read' | 'poll';

const syscalls = (...names: string[]): ReadonlySet<number> =>
  new Set(names.flatMap((name) => (SYSCALL_NR[name] === undefined ? [] : [SYSCALL_NR[name]])));
const READS = syscalls('read', 'readv', 'pread64');
const SELECTS = syscalls('select', 'pselect6');
const EPOLLS = syscalls('epoll_wait', 'epoll_pwait', 'epoll_pwait2');

/**
 * pty mode: which sleeping processes wait on the terminal — on any fd, since pagers and password prompts open
 * /dev/tty rather than read fd 0. A read is certain; select with nfds 1 can only watch fd 0 (vim); an epoll set is
 * listed in fdinfo (Node in raw mode watches the tty). poll/ppoll keep their fd list in memory we do not read.
 */
export function findTerminalWaits(samples: readonly ProcessSample[], slave: string): Map<number, TerminalWait> {
  const waits = new Map<number, TerminalWait>();
  for (const process of samples) {
    if (process.state !== 'S' || process.syscall === null) continue;
    const { nr, arg0 } = process.syscall;
    const isTerminal = (fd: number): boolean => {
      const target = fdTarget(process.pid, fd);
      return target === slave || target === '/dev/tty';
    };
    if (READS.has(nr) && isTerminal(arg0)) waits.set(process.pid, 'read');
    else if (SELECTS.has(nr) && arg0 === 1 && isTerminal(0)) waits.set(process.pid, 'poll');
    else if (EPOLLS.has(nr) && epollTargets(process.pid, arg0).some(isTerminal)) waits.set(process.pid, 'poll');
  }
  return waits;
}

/** The fds an epoll instance watches (`tfd:` lines of its fdinfo). */
function epollTargets(pid: number, epollFd: number): number[] {
  const info = readFdInfo(pid, epollFd) ?? '';
  return [...info.matchAll(/^tfd:\s+(\d+)/gm)].map((match) => Number(match[1]));
}
