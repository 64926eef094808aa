import { childrenOf, readStat } from '../../proc/index.js';
import { sendSignal } from './signals.js';
import type { ProcessTree, TreeRoot } from './tree.js';

/** The first child of `pid`, from /proc's children list, else by scanning `candidates` for the parent. */
function firstChild(pid: number, candidates: () => readonly number[]): number | null {
  const listed = childrenOf(pid)?.[0];
  if (listed !== undefined) return listed;
  // no CONFIG_PROC_CHILDREN, or the process is gone: look through the tree
  return candidates().find((candidate) => candidate !== pid && readStat(candidate)?.ppid === pid) ?? null;
}

/**
 * A command entered into a jail: the spawned root is nsenter, whose only child (after setsid, a session and process group
 * of its own) is the command as it ran before — `bash -c` or script(1). Signals a person would send go to that child and
 * its group; nsenter, which would die of them and report the wrong status, only gets SIGCONT (it stops itself when its
 * child stops) and the final SIGKILL. nsenter waits for its child and exits with the same status or signal.
 */
export function jailedTree(inner: ProcessTree, root: TreeRoot): ProcessTree {
  let entered: number | null = null;
  const commandRoot = (): number | null => {
    entered ??= firstChild(root.pid, () => inner.pids());
    return entered;
  };
  // Until nsenter has forked, the spawned process is all there is of the command, and counts as it.
  const shownPids = (): number[] =>
    commandRoot() === null ? inner.pids() : inner.pids().filter((pid) => pid !== root.pid);
  return {
    mechanism: inner.mechanism,
    pids: () => inner.pids(),
    signalGroup: (signal) => {
      const group = commandRoot();
      if (group === null) {
        inner.signalGroup(signal);
        return;
      }
      // Never signal a group that has no member left in the tree: the number may belong to someone else by now.
      if (shownPids().some((pid) => readStat(pid)?.pgid === group)) sendSignal(-group, signal);
    },
    signalEach: (pids, signal) =>
      inner.signalEach(signal === 'SIGCONT' ? pids : pids.filter((pid) => pid !== root.pid), signal),
    killAll: () => inner.killAll(),
    shownRoot: () => commandRoot() ?? root.pid,
    shownPids,
  };
}
