/** /proc/locks: who holds a flock/fcntl lock and who waits for it. Pids are as the harness's PID namespace sees them. */

export interface LockLine {
  /** the lock's number; a waiter's line repeats the number of the lock it waits for. */
  readonly id: number;
  readonly waiting: boolean;
  /** flock(2), a process-owned fcntl lock (posix), or an open-file-description fcntl lock (ofd, F_OFD_SETLK). */
  readonly lock: 'flock' | 'posix' | 'ofd';
  readonly access: 'read' | 'write';
  /** 0 or -1 when the process that took the lock is gone, and always -1 for an OFD lock (it belongs to no process). */
  readonly pid: number;
  /** `major:minor:inode`, major and minor in hex as the kernel prints them. */
  readonly file: string;
}

const LINE =
  /^(\d+):\s+(->\s+)?(FLOCK|POSIX|OFDLCK|DELEG|LEASE|ACCESS)\s+\S+\s+(\S+)\s+(-?\d+)\s+([0-9a-f]+:[0-9a-f]+:\d+)\s/;
const KINDS: Readonly<Record<string, LockLine['lock']>> = { FLOCK: 'flock', POSIX: 'posix', OFDLCK: 'ofd' };

export function parseLocks(text: string): LockLine[] {
  const lines: LockLine[] = [];
  for (const row of text.split('\n')) {
    const match = LINE.exec(row);
    const lock = match ? KINDS[match[3] ?? ''] : undefined;
    if (!match || !lock) continue;
    lines.push({
      id: Number(match[1]),
      waiting: match[2] !== undefined,
      lock,
      access: match[4] === 'READ' ? 'read' : 'write',
      pid: Number(match[5]),
      file: match[6] ?? '',
    });
  }
  return lines;
}

/** The `major:minor:inode` key /proc/locks uses, from a stat's dev and ino (the kernel's new_encode_dev layout). */
export function lockFileKey(dev: number, ino: number): string {
  const major = Math.floor(dev / 256) & 0xfff;
  const minor = (dev & 0xff) | (Math.floor(dev / 4096) & 0xfff00);
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${ino}`;
}
