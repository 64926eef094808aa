import type { ProcessSample } from '../../types/process.js';
import { SYSCALL_NR } from '../sample/syscall-names.js';

/**
 * What one process is doing, read from its state, wait channel and syscall. Wait channel
 * names change between kernels (6.18 here says futex_do_wait, anon_pipe_write,
 * unix_stream_read_generic, do_epoll_wait, hrtimer_nanosleep, do_wait), so match substrings.
 */
export type WaitKind =
  | 'running'
  | 'stopped'
  | 'zombie'
  | 'stdin-read'
  | 'pipe-write'
  | 'pipe-read'
  | 'futex'
  | 'child-wait'
  | 'sleep'
  | 'event-loop'
  | 'disk'
  | 'other';

const syscalls = (...names: string[]): ReadonlySet<number> =>
  new Set(names.flatMap((name) => (SYSCALL_NR[name] === undefined ? [] : [SYSCALL_NR[name]])));
const STDIN_READ_CALLS = syscalls('read', 'readv', 'pread64');
const CHILD_WAIT_CALLS = syscalls('wait4', 'waitid');

/** A process at or above this CPU % over the interval counts as busy. */
const BUSY_CPU_PERCENT = 50;
/** On a loaded machine a spinning process gets less than its core; running now and above this counts too. */
const BUSY_RUNNING_CPU_PERCENT = 20;

/** Running or waiting for a core this share of the interval (a wait is counted once it ends, so this is a floor): busy. */
const BUSY_DEMAND_PERCENT = 50;

export function isBusy(process: ProcessSample): boolean {
  if (
    process.cpuPercent >= BUSY_CPU_PERCENT ||
    (process.state === 'R' && process.cpuPercent >= BUSY_RUNNING_CPU_PERCENT)
  )
    return true;
  return process.state === 'R' && (process.demandPercent ?? 0) >= BUSY_DEMAND_PERCENT;
}

const PIPE_WRITE = /pipe_write|sock_alloc_send|wait_for_partner|unix_wait_for_peer/;
const PIPE_READ = /pipe_read|unix_stream_read|unix_stream_data_wait/;
// A terminal read (pty mode) sleeps in wait_woken/n_tty_read; so does a TCP recv, hence only with fd 0 evidence.
const STDIN_READ = /pipe_read|unix_stream_read|unix_stream_data_wait|n_tty_read|wait_woken/;
// \b: a futex wait's channel is futex_do_wait, which is no wait for a child.
const CHILD_WAIT = /\bdo_wait|wait4|waitid|wait_consider/;
const SLEEP = /nanosleep|do_sys_pause|sigsuspend|sigtimedwait/;
const EVENT_LOOP = /epoll|poll|select|inet_csk_accept|sk_wait_data/;

export function waitKind(process: ProcessSample): WaitKind {
  if (process.state === 'Z' || process.state === 'X') return 'zombie';
  if (process.state === 'T' || process.state === 't') return 'stopped';
  if (process.state === 'R' || isBusy(process)) return 'running';
  if (process.state === 'D') return 'disk';
  const wchan = process.wchan;
  if (readsStdin(process)) return 'stdin-read';
  // Any thread counts: a multiprocessing feeder thread blocks on the pipe while the main thread waits on a lock.
  if (PIPE_WRITE.test(wchan) || process.threadWchans.some((thread) => PIPE_WRITE.test(thread))) return 'pipe-write';
  if (/futex/.test(wchan) && process.threadWchans.every((thread) => /futex/.test(thread))) return 'futex';
  if (CHILD_WAIT.test(wchan) || (process.syscall !== null && CHILD_WAIT_CALLS.has(process.syscall.nr)))
    return 'child-wait';
  if (PIPE_READ.test(wchan)) return 'pipe-read';
  if (SLEEP.test(wchan)) return 'sleep';
  if (EVENT_LOOP.test(wchan)) return 'event-loop';
  return 'other';
}

/** Blocked reading fd 0 while fd 0 is the harness's stdin: nobody but the agent will ever answer. */
function readsStdin(process: ProcessSample): boolean {
  if (!process.stdinIsHarnessPipe) return false;
  const call = process.syscall;
  if (call) return call.arg0 === 0 && STDIN_READ_CALLS.has(call.nr);
  // /proc/pid/syscall needs ptrace rights; without it a read wchan on a process whose stdin is ours is the best clue.
  return STDIN_READ.test(process.wchan) && process.threads === 1;
}

/** Every thread sits in a futex wait with ~0 CPU: nobody will ever release the lock. */
export function allThreadsInFutex(process: ProcessSample): boolean {
  return waitKind(process) === 'futex' && process.cpuPercent < 5;
}

/** One short phrase for a reason line: `python3 (pid 42) blocked in anon_pipe_write`. */
export function describeProcess(process: ProcessSample): string {
  const where = process.wchan ? ` in ${process.wchan}` : '';
  return `${process.command} (pid ${process.innerPid ?? process.pid}, ${process.state}${where})`;
}
