import { closeSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import { parseStat } from './proc-parse.js';

/**
 * Synchronous /proc readers that never throw. Sync reads into one preallocated buffer are
 * ~35x cheaper than fs.promises here (platform-notes), and a process that vanishes
 * mid-sample (ENOENT/ESRCH) or a file we may not read (EACCES) simply yields null.
 */

// Big enough for stat, status, io, syscall, wchan and a truncated cmdline.
const buffer = Buffer.allocUnsafe(16 * 1024);

/** The file's text (proc files are ASCII; cmdline may be UTF-8 and is cut at the buffer size), or null. */
export function readProcFile(path: string, encoding: BufferEncoding = 'latin1'): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    return readProcFd(fd, encoding);
  } finally {
    closeSync(fd);
  }
}

/** An open proc file's text from offset 0 (each read regenerates it, so a kept descriptor reads it afresh), or null. */
export function readProcFd(fd: number, encoding: BufferEncoding = 'latin1'): string | null {
  try {
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    return buffer.toString(encoding, 0, length);
  } catch {
    return null;
  }
}

export function readProcLink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

export function listProcDir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** True where /proc is mounted and readable (Linux); the monitor classifies from output alone otherwise. */
export function procAvailable(): boolean {
  return process.platform === 'linux' && readProcFile('/proc/self/stat') !== null;
}

let pageKb: number | undefined;

/**
 * The page size in kB (4 on x86-64, 4, 16 or 64 on arm64), from this process's own resident set: Node reports it
 * in bytes from the same kernel counter that /proc/self/stat gives in pages. A power of two, so rounding is exact.
 */
export function pageSizeKb(): number {
  if (pageKb === undefined) {
    const pages = parseStat(readProcFile('/proc/self/stat') ?? '')?.rssPages ?? 0;
    pageKb = pages > 0 ? 2 ** Math.round(Math.log2(process.memoryUsage.rss() / 1024 / pages)) : 4;
  }
  return pageKb;
}
