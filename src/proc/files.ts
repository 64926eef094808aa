import { statSync } from 'node:fs';
import { readProcFile } from './read.js';

/** What a descriptor refers to (device and inode, as /proc/locks keys a file), and the lock table itself. */

export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly isFile: boolean;
  readonly size: number;
}

/** stat(2) through /proc/<pid>/fd/<fd>: the file itself, whatever its path became; null once the fd is closed. */
export function fileIdentity(pid: number, fd: number): FileIdentity | null {
  try {
    const stat = statSync(`/proc/${pid}/fd/${fd}`);
    return { dev: stat.dev, ino: stat.ino, isFile: stat.isFile(), size: stat.size };
  } catch {
    return null;
  }
}

/** /proc/<pid>/fdinfo/<fd>: flags, position, and a `lock:` line per lock held through this open file. */
export function readFdInfo(pid: number, fd: number): string | null {
  return readProcFile(`/proc/${pid}/fdinfo/${fd}`);
}

/** The host's /proc/locks (every flock, POSIX and OFD lock held or waited for); '' where it cannot be read. */
export function readLockTable(): string {
  return readProcFile('/proc/locks') ?? '';
}
