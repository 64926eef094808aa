import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

// One buffer for every read: readFileSync of a /proc or cgroup file (size 0 to stat) allocates 64 KiB each time, and
// a leak scan reads two files of every host process: 32 attempts ending made 126 MB of garbage buffers in 25 s.
const buffer = Buffer.allocUnsafe(64 * 1024);

/** The text of a kernel file, read into a shared buffer (a longer one is read whole the usual way); throws as readFileSync. */
export function readSmallFile(path: string, encoding: BufferEncoding = 'latin1'): string {
  const fd = openSync(path, 'r');
  try {
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return buffer.toString(encoding, 0, length);
      length += read;
    }
  } finally {
    closeSync(fd);
  }
  return readFileSync(path, encoding);
}
