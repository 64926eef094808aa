import type { KillMechanism, SignalName } from '../../types/process.js';
import { cgroupKill, liveCgroupProcs } from '../cgroup/cgroup.js';
import { groupMembers, isLive, markerEntries, readStat, scanForMarker } from '../../proc/index.js';
import { sendSignal, signalEach } from './signals.js';

/** The process the harness spawned; alive until Node has reaped it (an unreaped pid cannot be reused). */
export interface TreeRoot {
  readonly pid: number;
  readonly reaped: () => boolean;
}

/** One command's process tree, however the host lets us find it. Every listing excludes zombies. */
export interface ProcessTree {
  readonly mechanism: KillMechanism;
  pids(): number[];
  /** Sends `signal` to the root's process group (Ctrl-C), while that group still has a member. */
  signalGroup(signal: SignalName): void;
  /** Sends `signal` to each of `pids` (the escalation's TERM and CONT steps). */
  signalEach(pids: readonly number[], signal: SignalName): void;
  /** One SIGKILL pass over the tree; called again on every poll until the tree is empty. */
  killAll(): void;
  /** The command's own root as the monitor should show it: the spawned pid, or the first process inside a jail. */
  shownRoot(): number;
  /** pids() without the jail's entry process (nsenter), which is plumbing, not part of the command. */
  shownPids(): number[];
}

function rootAlive(root: TreeRoot, proc: boolean): boolean {
  return !root.reaped() && (!proc || isLive(root.pid));
}

function withRoot(root: TreeRoot, proc: boolean, pids: number[]): number[] {
  // Right after spawn the launcher may not have joined its cgroup yet; it is in the tree all the same.
  return rootAlive(root, proc) && !pids.includes(root.pid) ? [root.pid, ...pids] : pids;
}

/**
 * Whether the pgid `root.pid` still names our group. The kernel never hands out a pid while a group uses it, so
 * once the root is reaped a live process with that pid means our group is gone and the number was reused.
 */
function ownGroup(root: TreeRoot, proc: boolean): boolean {
  return !root.reaped() || (proc ? readStat(root.pid) === null : true);
}

/** cgroup v2: membership is exact and race-free; cgroup.kill takes processes forked mid-kill too. */
export function cgroupTree(dir: string, root: TreeRoot): ProcessTree {
  const pids = (): number[] => withRoot(root, true, liveCgroupProcs(dir));
  return {
    mechanism: 'cgroup-v2',
    pids,
    signalGroup: (signal) => {
      if (ownGroup(root, true)) sendSignal(-root.pid, signal);
    },
    signalEach,
    killAll: () => {
      cgroupKill(dir);
      if (rootAlive(root, true)) sendSignal(root.pid, 'SIGKILL');
    },
    shownRoot: () => root.pid,
    shownPids: pids,
  };
}

/**
 * Fallback: the root's process group plus every process whose environment carries this command's marker, which
 * finds setsid() grandchildren too. Off Linux (no /proc) only the root and its group can be reached.
 */
export function scanTree(attemptId: string, commandId: number, root: TreeRoot, proc: boolean): ProcessTree {
  const markers = markerEntries(attemptId, commandId);
  const pids = (): number[] => {
    if (!proc) return rootAlive(root, false) ? [root.pid] : [];
    const group = ownGroup(root, true) ? groupMembers(root.pid) : [];
    return withRoot(root, true, [...new Set([...scanForMarker(markers), ...group])]);
  };
  return {
    mechanism: 'process-group+scan',
    pids,
    signalGroup: (signal) => {
      if (ownGroup(root, proc)) sendSignal(-root.pid, signal);
    },
    signalEach,
    killAll: () => {
      if (ownGroup(root, proc)) sendSignal(-root.pid, 'SIGKILL');
      signalEach(pids(), 'SIGKILL');
    },
    shownRoot: () => root.pid,
    shownPids: pids,
  };
}
