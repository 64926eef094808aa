import type { ProcessEnd, ProcessSample, TreeSnapshot } from '../../types/process.js';
import { seconds } from '../../types/units.js';
import { nameOf, programOf } from '../waits/names.js';

/** Ends of one command line under one parent before it is a loop and not bad luck (the twins crash once). */
const MIN_FAILED = 3;
/** Growth of its open files below this in an interval is a log line per restart, not work being done. */
const LOG_BYTES = 64 * 1024;

export interface RestartLoop {
  /** the process that keeps starting the command line again. */
  readonly supervisor: ProcessSample;
  readonly sentence: string;
}

/**
 * A parent of the tree that starts the same command line again and again, each one ending by a signal or a non-zero
 * exit, one of them since the previous tick, while nothing but a log grew: a restart loop, not progress. An end seen
 * only as gone (reaped before a look: a supervisor's wait reaps at once) counts where every end of the same command
 * line whose status was seen failed, and at least one was; a build forking short-lived children that exit 0 never has one.
 */
export function restartLoop(snapshot: TreeSnapshot, ended: readonly ProcessEnd[]): RestartLoop | null {
  if (!onlyLogsMoved(snapshot)) return null;
  const fresh = new Set((snapshot.waits?.ended ?? []).map(keyOf));
  const byKey = new Map<string, ProcessEnd[]>();
  for (const end of ended) byKey.set(keyOf(end), [...(byKey.get(keyOf(end)) ?? []), end]);
  const seen = (list: readonly ProcessEnd[]): ProcessEnd[] => list.filter((end) => end.seen === 'zombie');
  const looping = (list: readonly ProcessEnd[]): boolean =>
    list.length >= MIN_FAILED && seen(list).length > 0 && seen(list).every(failed);
  const [, ends] = [...byKey].find(([key, list]) => fresh.has(key) && looping(list)) ?? [];
  const supervisor = ends && snapshot.processes.find((process) => process.pid === ends[0]?.ppid);
  if (!ends || !supervisor) return null;
  const [first] = ends;
  const last = ends.at(-1)!;
  const statuses = seen(ends);
  const how = [...new Set(statuses.map(howEnded))].join(' or ');
  const span = seconds(last.endedMs - (first?.endedMs ?? last.endedMs));
  const times =
    statuses.length === ends.length
      ? `${how} ${ends.length} times in ${span}`
      : `ended ${ends.length} times in ${span} (the ${statuses.length} whose status was seen: ${how})`;
  return {
    supervisor,
    sentence: `${nameOf(supervisor)} restarts ${programOf(last)}: it ${times}; nothing but a log grew: a restart loop, not progress`,
  };
}

function failed(end: ProcessEnd): boolean {
  return end.signal !== null || (end.exitCode ?? 0) !== 0;
}

function keyOf(end: ProcessEnd): string {
  return `${end.ppid}\0${end.args}`;
}

function howEnded(end: ProcessEnd): string {
  return end.signal !== null ? `died by ${end.signal}` : `exited ${end.exitCode}`;
}

/** No data segments, storage writes or file growth beyond a log's few lines over the interval. */
function onlyLogsMoved(snapshot: TreeSnapshot): boolean {
  const waits = snapshot.waits;
  if (!waits) return false;
  const grew = waits.progress.reduce((sum, delta) => sum + delta.filesGrew, 0);
  const stored = waits.progress.reduce((sum, delta) => sum + delta.writeBytes, 0);
  return (waits.netSegments ?? 0) === 0 && grew < LOG_BYTES && stored < LOG_BYTES;
}
