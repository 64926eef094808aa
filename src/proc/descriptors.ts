import { openSync } from 'node:fs';

/**
 * Descriptors the caller keeps: a process's proc file held open to be re-read (readProcFd), its user namespace held
 * so the namespace outlives it, or one of its own descriptors reopened to write into (an in-band tick into a shell's
 * stdout). The caller closes each; null where it cannot be opened (the process is gone, or it is not ours).
 */
export function openProcFile(pid: number, file: string): number | null {
  try {
    return openSync(`/proc/${pid}/${file}`, 'r');
  } catch {
    return null;
  }
}

/** The process's descriptor `fd` opened anew with `flags` (`O_WRONLY | O_APPEND | O_NONBLOCK` to write into its stdout). */
export function reopenDescriptor(pid: number, fd: number, flags: number): number | null {
  try {
    return openSync(`/proc/${pid}/fd/${fd}`, flags);
  } catch {
    return null;
  }
}
