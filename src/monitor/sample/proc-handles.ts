import { closeSync } from 'node:fs';
import { openProcFile, readPidFile, readProcFd } from '../../proc/index.js';

/** The per-process files a tick reads (RSS comes from stat; schedstat says whether the process ran since the last read). */
export type ProcFileName = 'stat' | 'schedstat' | 'io' | 'wchan' | 'syscall' | 'cmdline';

/** Past this many processes in one tree (a fork loop) the rest are read by path: descriptors stay bounded. */
const MAX_CACHED_PIDS = 256;
/** A set whose command stopped being sampled (it exited, or its monitor stopped) is closed this long after. */
const IDLE_CLOSE_MS = 60_000;

interface Entry {
  readonly fds: Map<ProcFileName, number>;
}

const everySet = new Set<ProcHandles>();

/**
 * Open /proc/<pid>/… descriptors of one command's tree, kept between ticks and re-read with pread at offset 0
 * (each read regenerates the file). A kept descriptor belongs to the process it was opened for: once that one is
 * gone it answers ESRCH, even if the pid was reused, and the entry is dropped and opened afresh by path.
 */
export class ProcHandles {
  private readonly entries = new Map<number, Entry>();
  private lastUsed = performance.now();

  constructor() {
    everySet.add(this);
    sweepIdle(this.lastUsed);
  }

  /** The file's text, or null when the process is gone or the file unreadable. */
  read(pid: number, file: ProcFileName, encoding: BufferEncoding = 'latin1'): string | null {
    this.lastUsed = performance.now();
    const entry = this.entry(pid);
    if (!entry) return readPidFile(pid, file, encoding);
    let fd = entry.fds.get(file) ?? null;
    if (fd === null) {
      fd = openProcFile(pid, file);
      if (fd === null) return null;
      entry.fds.set(file, fd);
    }
    const text = readProcFd(fd, encoding);
    if (text === null) this.drop(pid);
    return text;
  }

  /** Closes every pid's descriptors except `keep`'s: called after each sample with the pids just sampled. */
  retain(keep: ReadonlySet<number>): void {
    for (const pid of [...this.entries.keys()]) if (!keep.has(pid)) this.drop(pid);
  }

  close(): void {
    for (const pid of [...this.entries.keys()]) this.drop(pid);
    everySet.delete(this);
  }

  get openDescriptors(): number {
    let count = 0;
    for (const entry of this.entries.values()) count += entry.fds.size;
    return count;
  }

  idleSince(): number {
    return this.lastUsed;
  }

  private entry(pid: number): Entry | null {
    const known = this.entries.get(pid);
    if (known) return known;
    if (this.entries.size >= MAX_CACHED_PIDS) return null;
    const entry: Entry = { fds: new Map() };
    this.entries.set(pid, entry);
    return entry;
  }

  private drop(pid: number): void {
    const entry = this.entries.get(pid);
    if (!entry) return;
    for (const fd of entry.fds.values()) closeQuietly(fd);
    this.entries.delete(pid);
  }
}

/** Closes sets nobody sampled for a minute, so a monitor that ends without closing its set leaks nothing for long. */
function sweepIdle(now: number): void {
  for (const set of everySet) if (now - set.idleSince() > IDLE_CLOSE_MS) set.close();
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing to release
  }
}
