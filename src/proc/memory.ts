import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Reads a blocked process's memory (a root harness, or its own uid's processes): the pollfd array poll(2) waits on,
 * the path openat(2) blocks opening. Only for processes blocked in a syscall, so the memory is not changing.
 */
export function readMemory(pid: number, address: number, length: number): Buffer | null {
  if (!(address > 0) || length <= 0) return null;
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/mem`, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, address);
    return read > 0 ? buffer.subarray(0, read) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A NUL-terminated string at `address`, at most `max` bytes. */
export function readMemoryString(pid: number, address: number, max = 256): string | null {
  const bytes = readMemory(pid, address, max);
  if (!bytes) return null;
  const end = bytes.indexOf(0);
  return bytes.toString('utf8', 0, end < 0 ? bytes.length : end);
}

/** poll's `struct pollfd {int fd; short events; short revents}` array. */
export function readPollFds(
  pid: number,
  address: number,
  count: number,
): Array<{ readonly fd: number; readonly events: number }> {
  const bytes = readMemory(pid, address, Math.min(count, 64) * 8);
  if (!bytes) return [];
  const fds: Array<{ fd: number; events: number }> = [];
  for (let at = 0; at + 8 <= bytes.length; at += 8)
    fds.push({ fd: bytes.readInt32LE(at), events: bytes.readInt16LE(at + 4) });
  return fds.filter((entry) => entry.fd >= 0);
}
