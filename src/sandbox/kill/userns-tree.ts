import { closeSync } from 'node:fs';
import { allPids, childrenOf, isLive, markedCommand, openProcFile, namespaceOf, readStat } from '../../proc/index.js';
import { sendSignal, signalEach } from './signals.js';
import type { ProcessTree, TreeRoot } from './tree.js';

/**
 * Kills without cgroups, in a non-root jail. Every command enters the attempt's PID namespace inside a user namespace
 * of its own (`unshare --user --map-user=65534`, nested in the jail's). A process can never leave its user namespace —
 * not by setsid, a double fork, a new process group or `env -i` — so the namespace names the command's processes
 * exactly. The harness learns a command's namespace from the entered process, or — when the command was over before
 * that — from the HANGBENCH_COMMAND marker of any process in it (the namespace is shared, one marked member is enough).
 * A process that made a deeper user namespace of its own lives in one the attempt never created: found by
 * its ancestry (every process of the attempt descends from the jail's PID 1 or a command's entry), it counts as a
 * member of every command of the attempt, so any kill takes it too.
 */
export class AttemptNamespaces {
  readonly #jailInit: number;
  readonly #jailUserns: string | null;
  readonly #attemptId: string;
  readonly #own = userns(process.pid);
  /** each learnt namespace and the command it is. */
  readonly #owners = new Map<string, number>();
  /** the commands' entry processes; a pid counts only while Node has not reaped it (after that it may be reused). */
  readonly #roots = new Set<TreeRoot>();
  /** open fds of the commands' namespaces: a freed namespace's inode number is reused, so each is held until release(). */
  readonly #held: number[] = [];

  constructor(jailInit: number, attemptId: string) {
    this.#jailInit = jailInit;
    this.#jailUserns = userns(jailInit);
    this.#attemptId = attemptId;
  }

  /** The tree of command `commandId`, whose spawned process (nsenter) is `root`. */
  tree(root: TreeRoot, commandId: number): ProcessTree {
    this.#roots.add(root);
    const learn = (pid: number, found: string): void => {
      if (this.#owners.has(found)) return;
      const held = hold(pid);
      // Still the same namespace once held (the process may have exited and the number moved on in between).
      if (held !== null && userns(pid) === found) {
        this.#held.push(held);
        this.#owners.set(found, commandId);
      } else if (held !== null) closeSync(held);
    };
    const resolve = (): void => {
      // Once Node has reaped the entry its pid may be anyone's: what was not learnt by then is not learnt from it.
      if ([...this.#owners.values()].includes(commandId) || root.reaped()) return;
      for (const pid of childrenOrScan(root.pid)) {
        const found = userns(pid);
        if (found !== null && found !== this.#jailUserns && found !== this.#own) learn(pid, found);
      }
    };
    // Learn the namespace while the entered process still stands beside nsenter; a command over before that is learnt
    // from the marker its processes carry (below).
    const poll = setInterval(() => {
      resolve();
      if ([...this.#owners.values()].includes(commandId) || root.reaped()) clearInterval(poll);
    }, 1);
    poll.unref();
    const pids = (): number[] => {
      resolve();
      const members = allPids().filter((pid) => {
        if (pid === process.pid || pid === this.#jailInit) return false;
        const found = userns(pid);
        if (found === null || found === this.#own || found === this.#jailUserns) return false;
        const owner = this.#owners.get(found);
        if (owner !== undefined) return owner === commandId && isLive(pid);
        if (!this.#descends(pid) || !isLive(pid)) return false;
        // A namespace not learnt yet: a process that carries a command's marker names it; one without is an escaper.
        const marked = markedCommand(pid, this.#attemptId);
        if (marked === commandId) learn(pid, found);
        return marked === null || marked === commandId;
      });
      const learnt = [...this.#owners.values()].includes(commandId);
      // Until the entered process has switched namespaces, it and nsenter are all there is of the command.
      const early = !learnt && !root.reaped() ? childrenOrScan(root.pid).filter(isLive) : [];
      const rootLive = !root.reaped() && isLive(root.pid) ? [root.pid] : [];
      return [...new Set([...rootLive, ...early, ...members])];
    };
    return {
      mechanism: 'pid-namespace',
      pids,
      signalGroup: (signal) => {
        if (!root.reaped()) sendSignal(-root.pid, signal);
      },
      signalEach,
      killAll: () => signalEach(pids(), 'SIGKILL'),
      shownRoot: () => root.pid,
      shownPids: pids,
    };
  }

  /** Lets the kernel free the commands' namespaces: after the jail is gone. */
  release(): void {
    for (const fd of this.#held.splice(0)) closeSync(fd);
  }

  /** Whether `pid`'s ancestry reaches the jail's PID 1 or a command's entry process (the attempt's, and nobody else's). */
  #descends(pid: number): boolean {
    let current = pid;
    for (let hops = 0; hops < 64; hops += 1) {
      const parent = readStat(current)?.ppid;
      if (parent === undefined || parent <= 1) return false;
      if (parent === this.#jailInit || [...this.#roots].some((root) => root.pid === parent && !root.reaped()))
        return true;
      current = parent;
    }
    return false;
  }
}

function userns(pid: number): string | null {
  return namespaceOf(pid, 'user');
}

function hold(pid: number): number | null {
  return openProcFile(pid, 'ns/user');
}

function childrenOrScan(pid: number): number[] {
  // no CONFIG_PROC_CHILDREN, or the process is gone: look through every process
  return childrenOf(pid) ?? allPids().filter((candidate) => readStat(candidate)?.ppid === pid);
}
