import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { HangbenchError } from '../../types/errors.js';
import { withoutInheritedFds } from '../host/inherited-fds.js';
import { mountArgs, type Bind } from './jail-mounts.js';
import { isLive, ownUidMap } from '../../proc/index.js';
import { sendSignal, sleep } from '../kill/signals.js';

/** The unprivileged user a root harness runs every sandboxed command as (nobody/nogroup on Debian and Ubuntu). */
export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;

const READY = 'hangbench-jail-ready';

let rootCache: boolean | null = null;

/**
 * Whether the harness can drop commands to SANDBOX_UID: uid 0 with that uid mapped. Root inside a user namespace that
 * maps only itself (a rootless container, `unshare -r`) cannot, and builds a non-root jail instead.
 */
export function harnessIsRoot(): boolean {
  if (rootCache !== null) return rootCache;
  if (process.getuid?.() !== 0) return (rootCache = false);
  const uidMap = ownUidMap();
  if (uidMap === null) return (rootCache = true);
  const ranges = uidMap
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  rootCache = ranges.some(([inside = 0, , count = 0]) => inside <= SANDBOX_UID && SANDBOX_UID < inside + count);
  return rootCache;
}

/** `sleep` under another name, so that PID 1's own child is not one of the command's `sleep`s to pgrep or pkill. */
const PAUSE = '/run/hangbench/pause';

/**
 * PID 1 of a non-root jail: it ignores every signal a sandboxed process could send it (the kernel drops SIGKILL and
 * SIGSTOP sent to a namespace's init from inside), and reaps every orphan that is reparented to it (bash reaps any child
 * on SIGCHLD, known or not). Only the harness, from outside, can end it — and with it the whole PID namespace.
 */
const USERNS_INIT = `trap '' HUP INT QUIT TERM USR1 USR2 PIPE ALRM TSTP TTIN TTOU; echo ${READY}; while :; do ${PAUSE} 3600 & wait; done`;
const START_TIMEOUT_MS = 5_000;

export interface JailSpec {
  readonly binds: readonly Bind[];
  /** host paths to cover with an empty tmpfs where a read-only bind would show them. */
  readonly hide?: readonly string[];
  /** the directory commands start in (the holder's cwd, which nsenter -w takes over). */
  readonly cwd: string;
  readonly network: boolean;
  /** true: the harness is root, commands drop to SANDBOX_UID with setpriv; false: a user namespace maps the harness's own uid. */
  readonly root: boolean;
  /**
   * A root jail's commands each in a user namespace of their own too (made by the sandbox user after the drop), so that
   * they are found and killed by namespace where no cgroup can be written (a container's read-only cgroupfs). A non-root
   * jail always does this.
   */
  readonly commandUserns?: boolean;
}

/**
 * One bubblewrap sandbox for an attempt (or its verify): new PID, mount, IPC, UTS (and network) namespaces, held open by a
 * root-owned `sleep` as PID 2 with bwrap as PID 1 reaping orphans (a non-root harness: in a user namespace, with an
 * unkillable reaper as PID 1, USERNS_INIT). Commands enter it with nsenter (after the launcher
 * joined their cgroups), so a background process outlives the command that started it and later commands see it, as on
 * a real machine. --die-with-parent: if the harness dies, bwrap dies, and the whole PID namespace with it.
 */
export class Jail {
  readonly #holder: ChildProcess;
  /** host pid of the sandbox's PID 1, the target nsenter joins. */
  readonly initPid: number;
  readonly #root: boolean;
  /** whether the jail has a network namespace of its own (else nsenter must not try to join the host's: EPERM as non-root). */
  readonly #network: boolean;
  /** whether each command enters a user namespace of its own (userns-tree.ts names its processes by it). */
  readonly commandUserns: boolean;
  #stopping = false;
  #lost: string | null = null;

  private constructor(holder: ChildProcess, initPid: number, spec: JailSpec) {
    this.#holder = holder;
    this.initPid = initPid;
    this.#root = spec.root;
    this.#network = spec.network;
    this.commandUserns = !spec.root || spec.commandUserns === true;
    // bwrap ends with its PID 1: either killed from outside takes every process of the sandbox with it.
    holder.on('exit', (code, signal) => {
      if (!this.#stopping)
        this.#lost = `the sandbox's bwrap (pid ${holder.pid}) ended from outside the harness (${signal ?? `exit ${code}`})`;
    });
  }

  /** Why the sandbox ended under the attempt (bwrap or its PID 1 killed from outside), or null while it stands. */
  get lost(): string | null {
    // PID 1 dies first and bwrap's exit event comes later: the init's state answers at once.
    if (this.#lost === null && !this.#stopping && !isLive(this.initPid))
      this.#lost = `the sandbox's PID 1 (host pid ${this.initPid}) ended from outside the harness`;
    // bwrap's exit event may come after the exit of a command it took with it: its /proc state answers at once too.
    const holder = this.#holder.pid;
    if (this.#lost === null && !this.#stopping && holder !== undefined && !isLive(holder))
      this.#lost = `the sandbox's bwrap (pid ${holder}) ended from outside the harness`;
    return this.#lost;
  }

  static async start(spec: JailSpec): Promise<Jail> {
    const args = [
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      ...(spec.network ? ['--unshare-net'] : []),
      // As non-root, uid and gid 0 inside: the only ids a user namespace can map without a setuid helper are the harness's
      // own, and mapping them to 0 stops bwrap from nesting a second user namespace (which it does for any other uid, to
      // mount devpts), so the namespaces it creates are owned by the one user namespace that nsenter can join.
      ...(spec.root ? [] : ['--unshare-user', '--uid', '0', '--gid', '0', '--as-pid-1']),
      // The holder keeps one capability: to enter a workspace only the sandbox user may read (a 0700 mkdtemp copy).
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      ...(spec.root ? ['--cap-add', 'CAP_DAC_READ_SEARCH'] : []),
      ...mountArgs(spec.binds, spec.hide ?? []),
      ...(spec.root ? [] : ['--dir', '/run/hangbench', '--symlink', '/usr/bin/sleep', PAUSE]),
      // The sandbox's own root directory is the harness user's tmpfs as non-root: read-only, like a root jail's to uid 65534.
      '--remount-ro',
      '/',
      '--chdir',
      spec.cwd,
      '--info-fd',
      '3',
      '--',
      ...(spec.root ? ['sh', '-c', `echo ${READY}; exec sleep infinity`] : ['bash', '-c', USERNS_INIT]),
    ];
    // fd 3 is bwrap's --info-fd; what else the harness inherited stays out of the sandbox's PID 1 and its reaper.
    const [file, ...argv] = withoutInheritedFds(['bwrap', ...args], [3]);
    const holder = spawn(file, argv, {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin' },
      detached: true,
    });
    holder.on('error', () => undefined);
    try {
      const [initPid] = await Promise.all([childPid(holder), ready(holder)]);
      return new Jail(holder, initPid, spec);
    } catch (error) {
      holder.kill('SIGKILL');
      throw error;
    }
  }

  /** The exec prefix that runs a command inside: enter the namespaces, drop to the sandbox user, a session of its own. */
  enterPrefix(): [string, ...string[]] {
    const namespaces = [
      '-p',
      '-m',
      '-i',
      '-u',
      ...(this.#network ? ['-n'] : []),
      ...(this.#root ? [] : ['-U', '--preserve-credentials']),
    ];
    const user = this.#root
      ? [`--reuid=${SANDBOX_UID}`, `--regid=${SANDBOX_GID}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all']
      : // The user namespace's root joins with every capability in it: the bounding set must go, or bash -c would keep them.
        ['--inh-caps=-all', '--bounding-set=-all'];
    // Each command in a user namespace of its own, which none of its processes can leave (userns-tree.ts), as uid 65534;
    // --keep-caps lets setpriv, still privileged in it, empty the bounding set. Non-root: made by the jail's root, which
    // then drops. Root: made by the sandbox user after the drop (made by root it would map 65534 to the host's root), and
    // a second setpriv empties the bounding set the new namespace starts with.
    const ownUserns = [
      'unshare',
      '--user',
      `--map-user=${SANDBOX_UID}`,
      `--map-group=${SANDBOX_GID}`,
      '--keep-caps',
      '--',
    ];
    const enter = ['-t', String(this.initPid), ...namespaces, '-r', '-w', '--'];
    const drop = ['setpriv', ...user, '--no-new-privs', '--'];
    if (!this.#root) return ['nsenter', ...enter, ...ownUserns, ...drop, 'setsid'];
    if (!this.commandUserns) return ['nsenter', ...enter, ...drop, 'setsid'];
    return [
      'nsenter',
      ...enter,
      ...drop,
      ...ownUserns,
      'setpriv',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
      'setsid',
    ];
  }

  /** One synchronous SIGKILL to the sandbox's PID 1 and bwrap, for an exit that cannot wait. */
  killNow(): void {
    this.#stopping = true;
    sendSignal(this.initPid, 'SIGKILL');
    this.#holder.kill('SIGKILL');
  }

  /** SIGKILL to bwrap and the sandbox's PID 1: everything left in the namespace dies with it. */
  async stop(timeoutMs: number): Promise<void> {
    this.#stopping = true;
    sendSignal(this.initPid, 'SIGKILL');
    this.#holder.kill('SIGKILL');
    for (const stream of [this.#holder.stdout, this.#holder.stderr, this.#holder.stdio[3]])
      (stream as Readable | null)?.destroy();
    const deadline = performance.now() + timeoutMs;
    while (
      (isLive(this.initPid) || (this.#holder.exitCode === null && this.#holder.signalCode === null)) &&
      performance.now() < deadline
    )
      await sleep(5);
  }
}

function childPid(holder: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const info = holder.stdio[3] as Readable;
    info.setEncoding('utf8');
    info.on('data', (chunk: string) => {
      text += chunk;
      const match = /"child-pid":\s*(\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    info.on('end', () => reject(startError(holder, 'bwrap exited before it named the sandbox pid')));
  });
}

function ready(holder: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(startError(holder, `not ready after ${START_TIMEOUT_MS}ms`)),
      START_TIMEOUT_MS,
    );
    holder.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    holder.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(READY)) {
        clearTimeout(timer);
        resolve();
      }
    });
    holder.on('close', (code) => {
      clearTimeout(timer);
      reject(startError(holder, `bwrap exited with ${code}: ${err.trim().split('\n')[0] ?? ''}`));
    });
  });
}

function startError(holder: ChildProcess, why: string): HangbenchError {
  return new HangbenchError(
    'SANDBOX',
    `could not start the bubblewrap sandbox (pid ${holder.pid ?? '?'}): ${why}; run with HANGBENCH_ISOLATION=host-user to use the fallback`,
  );
}
