import { POLL_MS } from './poll.js';
import { liveCgroupProcs } from '../cgroup/cgroup.js';
import {
  describeProcess,
  inOtherAttemptCgroup,
  markerEntries,
  mayRunAgain,
  scanForMarkerYielding,
} from '../../proc/index.js';
import { sendSignal, sleep } from './signals.js';
import type { ProcessTree } from './tree.js';
import type { LeakReport } from '../types.js';

export interface LeakSources {
  readonly attemptId: string;
  readonly proc: boolean;
  /** every command's tree, whatever the mechanism (covers a root that has not joined its cgroup yet). */
  readonly trees: readonly ProcessTree[];
  /** the attempt-wide pids cgroup, which every command joined, when there is one. */
  readonly pidsCgroup: string | null;
  /** the name of the attempt's cgroups: processes in another attempt's cgroups are not read (see scanForMarker). */
  readonly cgroupName: string;
  /** how long to keep killing before giving up on a process that will not die (D state). */
  readonly timeoutMs: number;
}

async function findAll(sources: LeakSources): Promise<number[]> {
  const found = new Set<number>(sources.trees.flatMap((tree) => tree.pids()));
  if (sources.pidsCgroup !== null) for (const pid of liveCgroupProcs(sources.pidsCgroup)) found.add(pid);
  // The marker scan also finds what escaped every cgroup and group: the last resort, and the proof.
  if (sources.proc) {
    const otherAttempt = (pid: number): boolean => inOtherAttemptCgroup(pid, sources.cgroupName);
    for (const pid of await scanForMarkerYielding(markerEntries(sources.attemptId), otherAttempt)) found.add(pid);
  }
  return [...found];
}

async function killPass(sources: LeakSources): Promise<void> {
  for (const tree of sources.trees) tree.killAll();
  for (const pid of await findAll(sources)) {
    // SIGKILL reaches a stopped process too; SIGCONT first keeps that independent of the kernel's ordering.
    sendSignal(pid, 'SIGCONT');
    sendSignal(pid, 'SIGKILL');
  }
}

/**
 * Finds anything of the attempt still running, names it, kills it, and waits until it is gone. A process already
 * sent SIGKILL (by a check that kills what it started and exits at once, say) is waited for but not named: it can
 * never run its code again, however long a loaded machine takes to finish its exit.
 */
export async function scanAndKillLeaks(sources: LeakSources): Promise<LeakReport> {
  const found = await findAll(sources);
  const leaked = (sources.proc ? found.filter(mayRunAgain) : found).map((pid) => ({
    pid,
    command: sources.proc ? describeProcess(pid) : '?',
  }));
  const deadline = performance.now() + sources.timeoutMs;
  for (let left = found; left.length > 0 && performance.now() < deadline; left = await findAll(sources)) {
    await killPass(sources);
    await sleep(POLL_MS);
  }
  return { clean: leaked.length === 0, leaked };
}
