import { listProcDir, readProcFile, readProcLink } from './read.js';
import { readStat } from './stat.js';

/** Finding, counting and naming the processes of an attempt, and the marker every one of them carries. */

/** A zombie has done everything it will ever do, so it counts as gone. */
export function isLive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
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
  const environ = readProcFile(`/proc/${pid}/environ`, 'utf8')?.split('\0');
  if (environ === undefined || !environ.includes(`${MARKER_VARS.attempt}=${attemptId}`)) return null;
  const prefix = `${MARKER_VARS.command}=`;
  const entry = environ.find((item) => item.startsWith(prefix));
  return entry === undefined ? null : Number(entry.slice(prefix.length));
}

/** The process's environment carries every marker entry (exact `NAME=value`, never a prefix); false once it is gone. */
export function environHas(pid: number, entries: readonly string[]): boolean {
  const environ = readProcFile(`/proc/${pid}/environ`, 'utf8')?.split('\0');
  return environ !== undefined && entries.every((entry) => environ.includes(entry));
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
    return stat !== null && stat.pgid === pgid && stat.state !== 'Z' && stat.state !== 'X';
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
