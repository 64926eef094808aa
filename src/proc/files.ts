import { statSync } from 'node:fs';
import { listProcDir, readProcFile, readProcLink } from './read.js';

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

/** Where a descriptor points (`/dev/pts/3`, `socket:[123]`, `anon_inode:inotify`); null once it is closed. */
export function fdTarget(pid: number, fd: number): string | null {
  return readProcLink(`/proc/${pid}/fd/${fd}`);
}

/** A directory by device and inode, with its path relative to a process's cwd (`.`, `src`). */
export interface DirIdentity {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/**
 * A process's working directory and the directories right below it (the first `max` entries), by device and inode, as
 * an inotify watch names what it watches; [] once the process is gone.
 */
export function workingDirs(pid: number, max: number): DirIdentity[] {
  const cwd = `/proc/${pid}/cwd`;
  const dirs: DirIdentity[] = [];
  const add = (path: string, full: string): void => {
    try {
      const stat = statSync(full);
      if (stat.isDirectory()) dirs.push({ path, dev: stat.dev, ino: stat.ino });
    } catch {
      // gone or unreadable: not one of the candidates
    }
  };
  add('.', cwd);
  for (const name of listProcDir(cwd).slice(0, max)) add(name, `${cwd}/${name}`);
  return dirs;
}
