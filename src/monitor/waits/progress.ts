import type { ProgressDelta } from '../../types/process.js';
import type { FdLink } from '../sample/proc-details.js';
import { fileIdentity, namespaceOf, readPidFile } from '../../proc/index.js';
import { parseDataSegments } from './net-sockets.js';

/** Counters of one process at one sample, for the deltas of the next. */
export interface ProgressCounters {
  readonly startTicks: number;
  readonly cpuTicks: number;
  /** schedstat of the main thread: ns run, ns waited on a run queue. */
  readonly runNs: number;
  readonly queuedNs: number;
  /** schedstat's third field: how many times the main thread was put on a CPU (each wake-up from a sleep is one). */
  readonly runs: number;
  readonly rchar: number;
  readonly wchar: number;
  readonly readBytes: number;
  readonly writeBytes: number;
  /** sizes of the regular files it had open, by `fd:path`. */
  readonly sizes: ReadonlyMap<string, number>;
}

/** Regular files looked at per process: a build with hundreds open shows growth in the first ones. */
const MAX_SIZED_FILES = 16;
const MS_PER_CLOCK_TICK = 10;

/** Sizes of the regular files behind a process's descriptors (pipes, sockets and /dev are not files that grow). */
export function fileSizes(pid: number, links: readonly FdLink[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const link of links) {
    if (sizes.size >= MAX_SIZED_FILES) break;
    if (!link.target.startsWith('/')) continue;
    // null: closed between the listing and now
    const file = fileIdentity(pid, link.fd);
    if (file?.isFile) sizes.set(`${link.fd}:${link.target}`, file.size);
  }
  return sizes;
}

/** What moved for one process between two samples; null when it is a different process (pid reused) or nothing moved. */
export function progressDelta(
  pid: number,
  before: ProgressCounters | undefined,
  now: ProgressCounters,
): ProgressDelta | null {
  if (!before || before.startTicks !== now.startTicks) return null;
  let filesGrew = 0;
  for (const [key, size] of now.sizes) {
    const was = before.sizes.get(key);
    if (was !== undefined && size > was) filesGrew += size - was;
  }
  const delta = {
    pid,
    cpuMs: (now.cpuTicks - before.cpuTicks) * MS_PER_CLOCK_TICK,
    rchar: Math.max(0, now.rchar - before.rchar),
    wchar: Math.max(0, now.wchar - before.wchar),
    readBytes: Math.max(0, now.readBytes - before.readBytes),
    writeBytes: Math.max(0, now.writeBytes - before.writeBytes),
    filesGrew,
  };
  const moved =
    delta.cpuMs > 0 ||
    delta.rchar > 0 ||
    delta.wchar > 0 ||
    delta.readBytes > 0 ||
    delta.writeBytes > 0 ||
    filesGrew > 0;
  return moved ? delta : null;
}

const ownNamespace = namespaceOf('self', 'net');

/**
 * TCP data segments sent so far inside the command's own network namespace (a bubblewrap jail has one): on loopback
 * every data segment sent is one received, so it rises while a download receives and stays put while a request waits.
 * null when the command shares the harness's namespace, where every other program's traffic would count.
 */
export function namespaceDataSegments(pid: number): number | null {
  const namespace = namespaceOf(pid, 'net');
  if (namespace === null || namespace === ownNamespace) return null;
  return parseDataSegments(readPidFile(pid, 'net/netstat') ?? '');
}
