import { PROC_STATES, type ProcState } from '../types/process.js';
import { readProcFile } from './read.js';

/** Parsers for the /proc files the sandbox and the monitor read; each returns null on text it cannot use. */

export interface StatFields {
  readonly command: string;
  readonly state: ProcState;
  readonly ppid: number;
  readonly pgid: number;
  readonly sid: number;
  /** utime + stime in clock ticks, all threads. */
  readonly cpuTicks: number;
  readonly threads: number;
  /** clock ticks after boot; tells a reused pid apart from the process seen last time. */
  readonly startTicks: number;
  /** resident set in pages (field 24), the figure status's VmRSS prints in kB. */
  readonly rssPages: number;
  /** controlling terminal (device number, 0 for none) and its foreground process group (-1 for none). */
  readonly ttyNr: number;
  readonly tpgid: number;
  /** the kernel's per-task flags (field 9): PF_EXITING (0x4) once the task has begun its exit. */
  readonly flags: number;
  /**
   * field 52, the status a wait(2) will report (a zombie's exit code or signal); 0 while it runs, and 0 where the
   * reader may not ptrace the process or the kernel predates the field.
   */
  readonly exitStatus: number;
}

const STATES = new Set<string>(PROC_STATES);

export function parseStat(text: string): StatFields | null {
  // comm may contain spaces and parentheses, so split after the last ')'.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3 (state); field n is rest[n - 3].
  const field = (n: number): number => Number(rest[n - 3]);
  const state = rest[0] ?? '?';
  return {
    command: text.slice(open + 1, close),
    state: (STATES.has(state) ? state : '?') as ProcState,
    ppid: field(4),
    pgid: field(5),
    sid: field(6),
    cpuTicks: field(14) + field(15),
    threads: field(20),
    startTicks: field(22),
    rssPages: field(24),
    ttyNr: field(7),
    tpgid: field(8),
    flags: field(9),
    exitStatus: field(52) || 0,
  };
}

/** A process's stat line, parsed; null once it is gone. */
export function readStat(pid: number): StatFields | null {
  const text = readProcFile(`/proc/${pid}/stat`);
  return text === null ? null : parseStat(text);
}

/** rchar/wchar from /proc/pid/io: every byte read or written through read(2)/write(2), pipes included. */
export function parseIo(text: string): { readonly readBytes: number; readonly writeBytes: number } {
  const read = /^rchar:\s+(\d+)/m.exec(text);
  const write = /^wchar:\s+(\d+)/m.exec(text);
  return { readBytes: read ? Number(read[1]) : 0, writeBytes: write ? Number(write[1]) : 0 };
}

/** `/proc/pid/syscall`: "nr arg0 … sp pc" while blocked in a syscall; "running" or "-1 sp pc" otherwise. */
export function parseSyscall(text: string): { readonly nr: number; readonly arg0: number } | null {
  const parts = text.trim().split(' ');
  if (parts.length < 3) return null;
  const nr = Number(parts[0]);
  if (!Number.isInteger(nr) || nr < 0) return null;
  return { nr, arg0: Number.parseInt(parts[1] ?? '', 16) };
}

/** read_bytes/write_bytes from /proc/pid/io: what the process made the storage layer read or dirty. */
export function parseStorageIo(text: string): { readonly read: number; readonly write: number } {
  const read = /^read_bytes:\s+(\d+)/m.exec(text);
  const write = /^write_bytes:\s+(\d+)/m.exec(text);
  return { read: read ? Number(read[1]) : 0, write: write ? Number(write[1]) : 0 };
}

/** The six arguments of the blocked syscall (hex in the file), or [] when it is not blocked in one. */
export function parseSyscallArgs(text: string): number[] {
  const parts = text.trim().split(' ');
  if (parts.length < 9 || !(Number(parts[0]) >= 0)) return [];
  return parts.slice(1, 7).map((arg) => Number.parseInt(arg, 16));
}

/** cmdline's NUL-separated argv joined with spaces, cut to maxChars. */
export function parseCmdline(text: string, maxChars: number): string {
  const joined = text.replace(/\0+$/, '').replaceAll('\0', ' ');
  return joined.length > maxChars ? `${joined.slice(0, maxChars - 1)}…` : joined;
}

/** `/proc/pid/wchan` prints "0" for a running task; we say ''. */
export function parseWchan(text: string | null): string {
  const trimmed = (text ?? '').trim();
  return trimmed === '0' ? '' : trimmed;
}

/** `/proc/uptime` in seconds. */
export function parseUptime(text: string): number {
  return Number(text.split(' ')[0]);
}
