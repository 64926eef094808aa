import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readSmallFile } from './read-small.js';

/** Linux /proc readers used to find, count and name the processes of an attempt. Synchronous: each is a few µs. */

export interface ProcStat {
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  /** controlling terminal (device number, 0 for none) and its foreground process group (-1 for none). */
  readonly ttyNr: number;
  readonly tpgid: number;
}

export function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readSmallFile(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
  // comm may contain spaces and parentheses; the fields after the last ')' are fixed.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '?', ppid: Number(fields[1]), pgrp: Number(fields[2]), ttyNr: Number(fields[4]), tpgid: Number(fields[5]) };
}

/** A zombie has done everything it will ever do, so it counts as gone. */
export function isLive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}

export function allPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0) pids.push(pid);
  }
  return pids;
}

/** The marker entries every process of an attempt (or of one of its commands) carries in its environment. */
export function markerEntries(attemptId: string, commandId?: number): string[] {
  const entries = [`HANGBENCH_ATTEMPT=${attemptId}`];
  if (commandId !== undefined) entries.push(`HANGBENCH_COMMAND=${commandId}`);
  return entries;
}

function environHas(pid: number, entries: readonly string[]): boolean {
  let environ: string[];
  try {
    environ = readSmallFile(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return false;
  }
  return entries.every((entry) => environ.includes(entry));
}

/**
 * Live processes whose environment carries every marker entry (exact `NAME=value` match, never a prefix). `skip` is
 * asked first: reading environ waits for the process's mmap lock, which a forking process holds (a fork bomb's 512
 * processes took two minutes to read).
 */
export function scanForMarker(entries: readonly string[], skip?: (pid: number) => boolean): number[] {
  return allPids().filter((pid) => pid !== process.pid && !skip?.(pid) && environHas(pid, entries) && isLive(pid));
}

/** True when the process sits in a hangbench cgroup of another attempt (in any hierarchy): that attempt's to find. */
export function inOtherAttemptCgroup(pid: number, ownName: string): boolean {
  let text: string;
  try {
    text = readSmallFile(`/proc/${pid}/cgroup`);
  } catch {
    return false;
  }
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
    return stat !== null && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X';
  });
}

/** What a person would call the process: its command line, else its comm, for leak reports. */
export function describeProcess(pid: number): string {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    if (cmdline !== '') return cmdline.slice(0, 200);
    return `[${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}]`;
  } catch {
    return '?';
  }
}

/** The PID namespace a process lives in (`pid:[4026531836]`), or null once it is gone. */
export function pidNamespace(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return null;
  }
}

/** The pid a process has inside its own PID namespace: the last NSpid field of its status. */
export function innerPid(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'latin1').split('\n').find((entry) => entry.startsWith('NSpid:'));
    const last = line?.trim().split(/\s+/).at(-1);
    return last === undefined ? null : Number(last);
  } catch {
    return null;
  }
}

/** The host pid of the process that is `inner` inside PID namespace `namespace`, or null when there is none. */
export function hostPidIn(namespace: string, inner: number): number | null {
  return allPids().find((pid) => innerPid(pid) === inner && pidNamespace(pid) === namespace) ?? null;
}
