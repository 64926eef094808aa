import { listProcDir, readProcFile, readProcLink } from './read.js';

/**
 * One process's files under /proc/<pid>/ (`self`: the harness's own) by their name there: `stat`, `cmdline`,
 * `net/tcp`; null (or []) once the process is gone or the file cannot be read.
 */
export function readPidFile(pid: number | 'self', file: string, encoding: BufferEncoding = 'latin1'): string | null {
  return readProcFile(`/proc/${pid}/${file}`, encoding);
}

/** One thread's file (`wchan`, `stat`, `syscall`, `status`) under /proc/<pid>/task/<tid>/. */
export function readThreadFile(pid: number, tid: number | string, file: string): string | null {
  return readProcFile(`/proc/${pid}/task/${tid}/${file}`);
}

/** The process's thread ids, as /proc/<pid>/task lists them. */
export function threadIds(pid: number): string[] {
  return listProcDir(`/proc/${pid}/task`);
}

/** The process's open descriptors, as /proc/<pid>/fd lists them (numeric order). */
export function fdNumbers(pid: number): string[] {
  return listProcDir(`/proc/${pid}/fd`);
}

/** The namespace a process is in (`net:[4026531840]`), by kind. */
export function namespaceOf(pid: number | 'self', kind: 'net' | 'user'): string | null {
  return readProcLink(`/proc/${pid}/ns/${kind}`);
}
