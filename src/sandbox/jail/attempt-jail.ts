import { hiddenRoots, toolBinds, type Bind } from './jail-mounts.js';
import { harnessIsRoot, Jail, SANDBOX_GID, SANDBOX_UID } from './jail.js';
import type { Owner } from './owner.js';
import { AttemptNamespaces } from '../kill/userns-tree.js';
import type { AttemptDirs } from '../files/workspace.js';

/** A started jail and who must own what the harness writes into it. */
export interface AttemptJail {
  readonly jail: Jail;
  /** the sandbox user (a root harness), or null when a user namespace maps the harness's own uid. */
  readonly owner: Owner | null;
  /** a non-root jail's commands, each in a user namespace of its own: how they are found and killed without cgroups. */
  readonly namespaces: AttemptNamespaces | null;
}

let tools: ReturnType<typeof toolBinds> | null = null;

/** Who commands run as: a root harness drops them to the sandbox user, which must then own their writable dirs. */
export function sandboxOwner(): Owner | null {
  return harnessIsRoot() ? { uid: SANDBOX_UID, gid: SANDBOX_GID } : null;
}

/**
 * Whether a root jail's commands need user namespaces of their own to be killed: where no cgroup v2 subtree with
 * cgroup.kill is writable (a container's read-only cgroupfs), the namespace is what names a command's processes.
 */
export function needsCommandUserns(cgroupRoot: string | null): boolean {
  return cgroupRoot === null;
}

/**
 * Starts the bubblewrap sandbox of an attempt: `from`'s workspace, home and tmp appear read-write at `at`'s paths (the
 * same for the agent; verify's copy appears where the agent's workspace was), the toolchains read-only, nothing else.
 */
export async function startJail(
  attemptId: string,
  network: boolean,
  at: AttemptDirs,
  from: AttemptDirs,
  hide: readonly string[],
  extra: readonly Bind[] = [],
  commandUserns = false,
): Promise<AttemptJail> {
  const hidden = hiddenRoots();
  tools ??= toolBinds(process.env, hidden);
  const own = (['workspace', 'home', 'tmp'] as const).map((dir) => ({ from: from[dir], to: at[dir], writable: true }));
  const owner = sandboxOwner();
  const jail = await Jail.start({
    binds: [...tools, ...extra, ...own],
    hide: [...hidden, ...hide],
    cwd: at.workspace,
    network,
    root: owner !== null,
    commandUserns,
  });
  return { jail, owner, namespaces: jail.commandUserns ? new AttemptNamespaces(jail.initPid, attemptId) : null };
}
