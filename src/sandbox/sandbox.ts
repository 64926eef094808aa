import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { HangbenchError } from '../types/errors.js';
import { AttemptCgroups } from './cgroup/attempt-cgroups.js';
import { DEFAULTS } from '../defaults.js';
import { scrubEnvironment } from './env.js';
import { cpuPriorityOverride, launcherArgv, ulimitFlags } from './launcher.js';
import { scanAndKillLeaks } from './kill/leak.js';
import { openBridge, type Bridge, type BridgeOptions, type BridgeTarget } from './net/bridge.js';
import { trackSandbox } from './kill/live.js';
import { OwnInodes } from './files/own-inodes.js';
import { confinePath } from './files/paths.js';
import {
  cgroupCpu,
  type CgroupCpu,
  hostPidIn,
  inOtherAttemptCgroup,
  markerEntries,
  pidNamespace,
  RunQueueWait,
  scanForMarker,
} from '../proc/index.js';
import { needsCommandUserns, sandboxOwner, startJail, type AttemptJail } from './jail/attempt-jail.js';
import { jailedTree } from './kill/jailed-tree.js';
import { chownNew, chownTree } from './jail/owner.js';
import { startCommand, type SandboxCommand } from './process.js';
import { sendSignal } from './kill/signals.js';
import { PTY_ENV, ptyLaunchEnv, terminalTree } from './pty.js';
import { cgroupTree, scanTree } from './kill/tree.js';
import type {
  CommandRunner,
  CpuTimes,
  HostCapabilities,
  KillGraces,
  LeakReport,
  ResourceLimits,
  Sandbox,
  SandboxLimitHit,
  SandboxOptions,
  SpawnOptions,
} from './types.js';
import { overlayDir, prepareDirs, removeDirs, verifyDirs, type AttemptDirs } from './files/workspace.js';

/** The pyenv shim finds its versions through PYENV_ROOT or $HOME/.pyenv, and HOME moves into the sandbox. */
function hostPyenvRoot(): string | null {
  const candidate = join(process.env.HOME ?? homedir(), '.pyenv');
  return existsSync(candidate) ? candidate : null;
}

/**
 * The bin folder of the Python that pyenv's shims on the host's PATH select (PYENV_VERSION, else the root's `version`
 * file), or null: put first on the sandbox's PATH, so `python3` is the interpreter itself. The shim runs a chain of
 * bash processes at every start (about 0.4 s of CPU against 0.1 s for the interpreter alone), which a fixture's timings
 * at a small time scale cannot absorb and which the monitor would show as the program's own processes.
 */
export function pyenvVersionBin(
  env: Readonly<Record<string, string | undefined>>,
  fallbackRoot: string | null,
): string | null {
  const root = env.PYENV_ROOT ?? fallbackRoot;
  if (root === null || !(env.PATH ?? '').split(':').includes(join(root, 'shims'))) return null;
  let version = env.PYENV_VERSION;
  if (version === undefined) {
    try {
      version = readFileSync(join(root, 'version'), 'utf8').split('\n')[0]?.trim();
    } catch {
      return null;
    }
  }
  const first = version?.split(':')[0];
  if (!first || first === 'system') return null;
  const bin = join(root, 'versions', first, 'bin');
  return existsSync(join(bin, 'python3')) ? bin : null;
}

interface AttemptSetup {
  readonly attemptId: string;
  readonly capabilities: HostCapabilities;
  readonly dirs: AttemptDirs;
  readonly cgroups: AttemptCgroups;
  readonly limits: ResourceLimits;
  readonly graces: KillGraces;
  readonly timeScale: number;
  readonly isolateNetwork: boolean;
  readonly inodes: OwnInodes;
  /** the attempt's bubblewrap sandbox, or null in the host-user fallback. */
  readonly jail: AttemptJail | null;
  /** paths no sandbox of the attempt may see even where a read-only bind would show them (the case's fixture). */
  readonly hide: readonly string[];
}

class AttemptSandbox implements Sandbox {
  readonly attemptId: string;
  readonly capabilities: HostCapabilities;
  readonly root: string;
  readonly workspace: string;
  readonly #setup: AttemptSetup;
  readonly #commands: SandboxCommand[] = [];
  readonly #bridges: Bridge[] = [];
  readonly #pyenvRoot = hostPyenvRoot();
  readonly #pythonBin = pyenvVersionBin(process.env, this.#pyenvRoot);
  #verifyJail: AttemptJail | null = null;
  #disposed = false;
  /** the cgroup's CPU counters at the start, null where the attempt has no cgroup v2 with PSI: schedstat instead. */
  readonly #cpuAtStart: CgroupCpu | null;
  readonly #queueWait = new RunQueueWait();
  #cpuTimes: CpuTimes = { waitedMs: 0, ranMs: 0 };
  readonly #untrack = trackSandbox(this);

  constructor(setup: AttemptSetup) {
    this.#setup = setup;
    this.attemptId = setup.attemptId;
    this.capabilities = setup.capabilities;
    this.root = setup.dirs.root;
    this.workspace = setup.dirs.workspace;
    this.#cpuAtStart = setup.cgroups.v2 === null ? null : cgroupCpu(setup.cgroups.v2);
  }

  cpuTimes(): CpuTimes {
    const { v2 } = this.#setup.cgroups;
    const start = this.#cpuAtStart;
    let now: CpuTimes | null = null;
    if (start !== null) {
      const cpu = v2 === null ? null : cgroupCpu(v2);
      if (cpu !== null)
        now = { waitedMs: (cpu.stallUs - start.stallUs) / 1000, ranMs: (cpu.usageUs - start.usageUs) / 1000 };
    } else {
      this.#queueWait.sample(this.#commands.filter((command) => !command.done).flatMap((command) => command.pids()));
      now = { waitedMs: this.#queueWait.ms, ranMs: this.#queueWait.ranMs };
    }
    // a cgroup already removed reads as nothing: keep what was counted
    if (now !== null)
      this.#cpuTimes = {
        waitedMs: Math.max(this.#cpuTimes.waitedMs, now.waitedMs),
        ranMs: Math.max(this.#cpuTimes.ranMs, now.ranMs),
      };
    return this.#cpuTimes;
  }

  spawn(command: string, options: SpawnOptions): SandboxCommand {
    return this.#spawnIn(this.#setup.jail, command, options);
  }

  async openBridge(target: BridgeTarget, options?: BridgeOptions): Promise<Bridge> {
    if (this.#disposed) throw new HangbenchError('SANDBOX', `sandbox of attempt ${this.attemptId} was disposed`);
    const bridge = await openBridge(this.#setup.jail?.jail.enterPrefix() ?? null, target, options);
    this.#bridges.push(bridge);
    return bridge;
  }

  async forVerify(...hiddenDirs: string[]): Promise<CommandRunner> {
    const { jail, dirs } = this.#setup;
    if (jail === null) {
      for (const hiddenDir of hiddenDirs) await this.overlay(hiddenDir);
      return this;
    }
    const copy = await verifyDirs(dirs);
    for (const hiddenDir of hiddenDirs) await overlayDir(copy.workspace, hiddenDir);
    await chownTree(copy.root, jail.owner);
    // Seen at the agent's paths, so every path a check prints or expects is the same as in the agent's sandbox.
    const verifyJail = await startJail(
      this.attemptId,
      this.#setup.isolateNetwork,
      dirs,
      copy,
      this.#setup.hide,
      [],
      needsCommandUserns(this.capabilities.cgroupRoot),
    );
    this.#verifyJail = verifyJail;
    return { spawn: (command, options) => this.#spawnIn(verifyJail, command, options) };
  }

  #spawnIn(jail: AttemptJail | null, command: string, options: SpawnOptions): SandboxCommand {
    if (this.#disposed) throw new HangbenchError('SANDBOX', `sandbox of attempt ${this.attemptId} was disposed`);
    const terminal = options.terminal ?? 'pipe';
    if (terminal === 'pty' && this.capabilities.pty !== true) {
      throw new HangbenchError(
        'SANDBOX',
        'terminal: pty needs script(1) from util-linux on Linux, which this host lacks; install util-linux or run the case with terminal: pipe',
      );
    }
    const { commandId } = options;
    const { cgroups, dirs, limits } = this.#setup;
    const cgroup = cgroups.forCommand(commandId);
    const env = scrubEnvironment({
      host: process.env,
      home: dirs.home,
      tmp: dirs.tmp,
      timeScale: this.#setup.timeScale,
      attemptId: this.attemptId,
      commandId,
      pyenvRoot: this.#pyenvRoot,
      pathFirst: this.#pythonBin,
      // A pty gets a fixed size and terminal type; the caller's env may still override them.
      extra: terminal === 'pty' ? { ...PTY_ENV, ...options.env } : options.env,
    });
    const argv = launcherArgv({
      v2Procs: cgroup === null ? null : join(cgroup, 'cgroup.procs'),
      v1Procs: cgroups.sharedProcsFiles(),
      ulimits: ulimitFlags(limits, {
        addressSpace: this.capabilities.platform === 'linux',
        processes: this.capabilities.processLimit === 'rlimit',
        niceLimit: this.capabilities.platform === 'linux',
      }),
      isolateNetwork: this.#setup.isolateNetwork,
      nice: limits.nice,
      cpuPriority: limits.cpuPriority,
      terminal,
      stdinNull: options.stdinNull === true,
      jail: jail?.jail.enterPrefix() ?? null,
    });
    const spawned = startCommand({
      commandId,
      command,
      argv,
      cwd: this.workspace,
      env: { ...env, HANGBENCH_CMD: command, ...(terminal === 'pty' ? ptyLaunchEnv() : {}) },
      graces: this.#setup.graces,
      terminal,
      makeTree: (root) => {
        const namespaces = jail?.namespaces ?? null;
        const tree =
          cgroup !== null
            ? cgroupTree(cgroup, root)
            : namespaces !== null
              ? namespaces.tree(root, commandId)
              : scanTree(this.attemptId, commandId, root, this.capabilities.proc);
        const entered = jail === null ? tree : jailedTree(tree, root);
        return terminal === 'pty' ? terminalTree(entered) : entered;
      },
    });
    this.#commands.push(spawned);
    return spawned;
  }

  hostPid(pidInside: number): number | null {
    const jail = this.#setup.jail;
    if (jail === null) return pidInside;
    const namespace = pidNamespace(jail.jail.initPid);
    return namespace === null ? null : hostPidIn(namespace, pidInside);
  }

  resolvePath(relative: string): Promise<string> {
    return confinePath(this.workspace, relative);
  }

  async readFile(relative: string): Promise<string> {
    return readFile(await this.resolvePath(relative), 'utf8');
  }

  async writeFile(relative: string, content: string): Promise<number> {
    const target = await this.resolvePath(relative);
    await this.#setup.inodes.checkWritable(target, relative);
    const made = await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    await chownNew(target, made, this.#setup.jail?.owner ?? null);
    await this.#setup.inodes.add(target);
    return Buffer.byteLength(content);
  }

  async overlay(sourceDir: string): Promise<void> {
    await overlayDir(this.workspace, sourceDir);
    await chownTree(this.workspace, this.#setup.jail?.owner ?? null);
  }

  leakScan(): Promise<LeakReport> {
    return scanAndKillLeaks({
      attemptId: this.attemptId,
      proc: this.capabilities.proc,
      trees: this.#commands.map((command) => command.tree),
      pidsCgroup: this.#setup.cgroups.pids,
      cgroupName: this.#setup.cgroups.name,
      timeoutMs: this.#setup.graces.afterKillMs,
    });
  }

  async settle(): Promise<void> {
    await this.#setup.cgroups.released(this.#setup.graces.afterKillMs);
  }

  limitHits(): readonly SandboxLimitHit[] {
    return this.#setup.cgroups.limitHits();
  }

  /** One synchronous SIGKILL pass over everything of the attempt, for an exit that cannot wait for escalation. */
  lost(): string | null {
    const { cgroups } = this.#setup;
    // An attempt's cgroup can only be removed from outside while it is empty; its next command could not start.
    const removed = this.#disposed
      ? undefined
      : [cgroups.v2, cgroups.pids, cgroups.memory, cgroups.cpu].find((dir) => dir !== null && !existsSync(dir));
    if (removed) return `the attempt's cgroup ${removed} was removed from outside the harness`;
    return this.#setup.jail?.jail.lost ?? null;
  }

  killNow(): void {
    for (const command of this.#commands) command.tree.killAll();
    for (const jail of [this.#setup.jail, this.#verifyJail]) jail?.jail.killNow();
    if (!this.capabilities.proc) return;
    const otherAttempt = (pid: number): boolean => inOtherAttemptCgroup(pid, this.#setup.cgroups.name);
    for (const pid of scanForMarker(markerEntries(this.attemptId), otherAttempt)) sendSignal(pid, 'SIGKILL');
  }

  async dispose(): Promise<void> {
    // Normally leakScan left nothing; if it was skipped, kill what remains so the cgroups can go.
    this.#disposed = true;
    this.#untrack();
    await this.leakScan();
    for (const command of this.#commands)
      for (const stream of [command.stdin, command.stdout, command.stderr]) stream.destroy();
    await Promise.all(this.#bridges.map((bridge) => bridge.close()));
    for (const jail of [this.#setup.jail, this.#verifyJail]) {
      await jail?.jail.stop(this.#setup.graces.afterKillMs);
      jail?.namespaces?.release();
    }
    await this.#setup.cgroups.remove(this.#setup.graces.afterKillMs);
    await removeDirs(this.#setup.dirs);
  }
}

export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const limits = { ...DEFAULTS.limits, ...cpuPriorityOverride(), ...options.limits };
  const graces = { ...DEFAULTS.killGraces, ...options.killGraces };
  const { attemptId, capabilities } = options;
  const dirs = await prepareDirs(attemptId, options.workspaceSource);
  const inodes = await OwnInodes.collect(dirs.workspace).catch(async (error: unknown) => {
    await removeDirs(dirs);
    throw error;
  });
  let cgroups: AttemptCgroups;
  try {
    cgroups = AttemptCgroups.create(capabilities, attemptId, limits);
  } catch (error) {
    await removeDirs(dirs);
    throw new HangbenchError(
      'SANDBOX',
      `could not create the cgroups of attempt ${attemptId}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  // bwrap makes the jail's network namespace itself; the fallback needs `unshare --net` (netns) for one per command.
  const isolateNetwork = (capabilities.isolation === 'bubblewrap' || capabilities.netns) && options.network !== 'host';
  const hide = [dirname(options.workspaceSource)];
  let jail: AttemptJail | null = null;
  const binds = options.binds ?? [];
  if (binds.length > 0 && capabilities.isolation !== 'bubblewrap') {
    await cgroups.remove(graces.afterKillMs);
    await removeDirs(dirs);
    throw new HangbenchError(
      'SANDBOX',
      'an installed agent runs only inside the bubblewrap sandbox, which this run does not have (isolation host-user); install bubblewrap or run another agent',
    );
  }
  if (capabilities.isolation === 'bubblewrap') {
    try {
      for (const dir of [dirs.workspace, dirs.home, dirs.tmp]) await chownTree(dir, sandboxOwner());
      jail = await startJail(
        attemptId,
        isolateNetwork,
        dirs,
        dirs,
        hide,
        binds,
        needsCommandUserns(capabilities.cgroupRoot),
      );
    } catch (error) {
      await cgroups.remove(graces.afterKillMs);
      await removeDirs(dirs);
      throw error;
    }
  }
  return new AttemptSandbox({
    attemptId,
    capabilities,
    dirs,
    cgroups,
    limits,
    graces,
    timeScale: options.timeScale,
    isolateNetwork,
    inodes,
    jail,
    hide,
  });
}
