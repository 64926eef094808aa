import { listProcDir, readProcFile, readProcLink } from './read.js';
import { parseStat, readStat, type StatFields } from './stat.js';

/** Finding, counting and naming the processes of an attempt, and the marker every one of them carries. */

/** PF_EXITING in a task's stat flags: the kernel has begun the task's exit, which nothing can stop. */
const PF_EXITING = 0x4;
/** SIGKILL's bit in the pending masks of /proc/PID/task/TID/status: it cannot be caught, blocked or undone. */
const SIGKILL_BIT = 1n << 8n;

/** A task that will never run its program's code again: a zombie, dead, or already inside its exit. */
export function hasEnded(stat: Pick<StatFields, 'state' | 'flags'>): boolean {
  return stat.state === 'Z' || stat.state === 'X' || (stat.flags & PF_EXITING) !== 0;
}

/**
 * Whether a process can still run code. A zombie, or one inside its exit, has done everything it will ever do; but a
 * thread group whose leader called pthread_exit shows a zombie leader while its other threads run on, so an ended
 * leader with more threads than itself is live while one of them is.
 */
export function isLive(pid: number): boolean {
  const stat = readStat(pid);
  if (stat === null) return false;
  if (!hasEnded(stat)) return true;
  return (
    stat.threads > 1 && listProcDir(`/proc/${pid}/task`).some((tid) => tid !== String(pid) && taskMayRun(pid, tid))
  );
}

/**
 * Whether a process may run its code again: live, and not every thread of it already sent SIGKILL. The leak scan's
 * test, so a process killed a moment before the scan (by a check that exits right after its kill, on a loaded
 * machine) is not reported as left running.
 */
export function mayRunAgain(pid: number): boolean {
  return isLive(pid) && listProcDir(`/proc/${pid}/task`).some((tid) => taskMayRun(pid, tid));
}

function taskMayRun(pid: number, tid: string): boolean {
  const stat = parseStat(readProcFile(`/proc/${pid}/task/${tid}/stat`) ?? '');
  if (stat === null || hasEnded(stat)) return false;
  const status = readProcFile(`/proc/${pid}/task/${tid}/status`);
  return status !== null && !sigkillPending(status);
}

/** A task's status says SIGKILL is pending for it (its own mask or its process's shared one). */
export function sigkillPending(status: string): boolean {
  return ['SigPnd', 'ShdPnd'].some((field) => (pendingMask(status, field) & SIGKILL_BIT) !== 0n);
}

function pendingMask(status: string, field: string): bigint {
  const hex = new RegExp(`^${field}:\\s*([0-9a-f]+)$`, 'm').exec(status)?.[1];
  return hex === undefined ? 0n : BigInt(`0x${hex}`);
}

export function allPids(): number[] {
  const pids: number[] = [];
  for (const name of listProcDir('/proc')) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0) pids.push(pid);
  }
  return pids;
}

/** The environment variables that mark a process as an attempt's (and as one of its commands'). */
export const MARKER_VARS = { attempt: 'HANGBENCH_ATTEMPT', command: 'HANGBENCH_COMMAND' } as const;

/** The marker variables a command's environment gets: the harness finds, counts and kills its processes by them. */
export function markerEnv(attemptId: string, commandId: number): Record<string, string> {
  return { [MARKER_VARS.attempt]: attemptId, [MARKER_VARS.command]: String(commandId) };
}

/** The marker entries every process of an attempt (or of one of its commands) carries in its environment. */
export function markerEntries(attemptId: string, commandId?: number): string[] {
  const entries = [`${MARKER_VARS.attempt}=${attemptId}`];
  if (commandId !== undefined) entries.push(`${MARKER_VARS.command}=${commandId}`);
  return entries;
}

/** The command a process's environment marks it as within this attempt, or null: no marker of it, or the process is gone. */
export function markedCommand(pid: number, attemptId: string): number | null {
  const environ = readEnviron(pid);
  if (environ === undefined || !environ.includes(`${MARKER_VARS.attempt}=${attemptId}`)) return null;
  const prefix = `${MARKER_VARS.command}=`;
  const entry = environ.find((item) => item.startsWith(prefix));
  return entry === undefined ? null : Number(entry.slice(prefix.length));
}

/** The process's environment carries every marker entry (exact `NAME=value`, never a prefix); false once it is gone. */
export function environHas(pid: number, entries: readonly string[]): boolean {
  const environ = readEnviron(pid);
  return environ !== undefined && entries.every((entry) => environ.includes(entry));
}

/**
 * A process's environment, undefined once it is gone. A leader that called pthread_exit has no memory of its own left
 * (its environ reads empty) while its other threads run on with the process's memory: theirs is read instead, so a
 * process cannot hide its marker by ending its first thread.
 */
function readEnviron(pid: number): string[] | undefined {
  const own = readProcFile(`/proc/${pid}/environ`, 'utf8');
  if (own) return own.split('\0');
  const stat = readStat(pid);
  if (stat === null) return undefined;
  if (stat.threads > 1 && hasEnded(stat))
    for (const tid of listProcDir(`/proc/${pid}/task`)) {
      const theirs = tid === String(pid) ? null : readProcFile(`/proc/${pid}/task/${tid}/environ`, 'utf8');
      if (theirs) return theirs.split('\0');
    }
  return [];
}

/**
 * Live processes whose environment carries every marker entry (exact `NAME=value` match, never a prefix). `skip` is
 * asked first: reading environ waits for the process's mmap lock, which a forking process holds (a fork bomb's 512
 * processes took two minutes to read).
 */
export function scanForMarker(entries: readonly string[], skip?: (pid: number) => boolean): number[] {
  return allPids().filter((pid) => pid !== process.pid && !skip?.(pid) && environHas(pid, entries) && isLive(pid));
}

/** Processes read between two turns of the event loop in scanForMarkerYielding. */
const SCAN_CHUNK = 32;

/**
 * scanForMarker, giving the event loop a turn after every SCAN_CHUNK processes: a scan of a busy host reads hundreds of
 * environ files (12–24 ms each scan on a shared 2-core VM), and attempts that end together would hold up every other
 * attempt's ticks for that long.
 */
export async function scanForMarkerYielding(
  entries: readonly string[],
  skip?: (pid: number) => boolean,
): Promise<number[]> {
  const pids = allPids();
  const found: number[] = [];
  for (let start = 0; start < pids.length; start += SCAN_CHUNK) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const pid of pids.slice(start, start + SCAN_CHUNK))
      if (pid !== process.pid && !skip?.(pid) && environHas(pid, entries) && isLive(pid)) found.push(pid);
  }
  return found;
}

/** True when the process sits in a hangbench cgroup of another attempt (in any hierarchy): that attempt's to find. */
export function inOtherAttemptCgroup(pid: number, ownName: string): boolean {
  const text = readProcFile(`/proc/${pid}/cgroup`);
  if (text === null) return false;
  return text.split('\n').some((line) => {
    const parts = line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1).split('/');
    const at = parts.lastIndexOf('hangbench');
    const name = at === -1 ? undefined : parts[at + 1];
    return name !== undefined && name !== ownName;
  });
}

/** Live members of a process group. */
export function groupMembers(pgid: number): number[] {
  return allPids().filter((pid) => {
    const stat = readStat(pid);
    return stat !== null && stat.pgid === pgid && isLive(pid);
  });
}

/** What a person would call the process: its command line, else its comm, for leak reports. */
export function describeProcess(pid: number): string {
  const cmdline = readProcFile(`/proc/${pid}/cmdline`, 'utf8')?.split('\0').filter(Boolean).join(' ');
  if (cmdline) return cmdline.slice(0, 200);
  const comm = readProcFile(`/proc/${pid}/comm`, 'utf8');
  return comm === null ? '?' : `[${comm.trim()}]`;
}

/** The PID namespace a process lives in (`pid:[4026531836]`), or null once it is gone. */
export function pidNamespace(pid: number): string | null {
  return readProcLink(`/proc/${pid}/ns/pid`);
}

/** The pid of the process tracing this one (in the reader's PID namespace), 0 when none traces it; null once it is gone. */
export function tracerPid(pid: number): number | null {
  const match = /^TracerPid:\s*(\d+)$/m.exec(readProcFile(`/proc/${pid}/status`) ?? '');
  return match ? Number(match[1]) : null;
}

/** The pid a process has inside its own PID namespace: the last NSpid field of its status. */
export function innerPid(pid: number): number | null {
  const line = readProcFile(`/proc/${pid}/status`)
    ?.split('\n')
    .find((entry) => entry.startsWith('NSpid:'));
  const last = line?.trim().split(/\s+/).at(-1);
  return last === undefined ? null : Number(last);
}

/** The pids of a thread's children (CONFIG_PROC_CHILDREN; the main thread's by default), or null where that file cannot be read. */
export function childrenOf(pid: number, task: number = pid): number[] | null {
  return readProcFile(`/proc/${pid}/task/${task}/children`)?.trim().split(' ').filter(Boolean).map(Number) ?? null;
}

/** The host pid of the process that is `inner` inside PID namespace `namespace`, or null when there is none. */
export function hostPidIn(namespace: string, inner: number): number | null {
  return allPids().find((pid) => innerPid(pid) === inner && pidNamespace(pid) === namespace) ?? null;
}
