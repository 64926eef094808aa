import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { HangbenchError } from '../types/errors.js';
import { cgroupKill, cgroupName, cgroupProcs, makeCgroup, removeCgroup, setPidsMax } from './cgroup.js';
import { DEFAULT_GRACES, DEFAULT_LIMITS } from './defaults.js';
import { scrubEnvironment } from './env.js';
import { launcherArgv, ulimitFlags } from './launcher.js';
import { scanAndKillLeaks } from './leak.js';
import { confinePath } from './paths.js';
import { startCommand, type SandboxCommand } from './process.js';
import { cgroupTree, scanTree } from './tree.js';
import type { HostCapabilities, KillGraces, LeakReport, ResourceLimits, Sandbox, SandboxOptions, SpawnOptions } from './types.js';
import { overlayDir, prepareDirs, removeDirs, type AttemptDirs } from './workspace.js';

interface AttemptCgroups {
  /** `<v2root>/<attempt>`, parent of one `cmd-<id>` cgroup per command; null when killing by scan. */
  readonly v2: string | null;
  /** `<pidsroot>/<attempt>` with pids.max, shared by every command of the attempt. */
  readonly pids: string | null;
}

function attemptCgroups(caps: HostCapabilities, attemptId: string, limits: ResourceLimits): AttemptCgroups {
  const name = cgroupName(attemptId);
  const v2 = caps.mechanism === 'cgroup-v2' && caps.cgroupRoot !== null ? join(caps.cgroupRoot, name) : null;
  const pids = caps.processLimit === 'pids-cgroup' && caps.pidsCgroupRoot !== null ? join(caps.pidsCgroupRoot, name) : null;
  try {
    if (v2 !== null) makeCgroup(v2);
    if (pids !== null) {
      makeCgroup(pids);
      setPidsMax(pids, limits.processes);
    }
  } catch (error) {
    for (const dir of [v2, pids]) if (dir !== null && existsSync(dir)) rmdirSync(dir);
    throw error;
  }
  return { v2, pids };
}

/** The pyenv shim finds its versions through PYENV_ROOT or $HOME/.pyenv, and HOME moves into the sandbox. */
function hostPyenvRoot(): string | null {
  const candidate = join(process.env.HOME ?? homedir(), '.pyenv');
  return existsSync(candidate) ? candidate : null;
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
}

class AttemptSandbox implements Sandbox {
  readonly attemptId: string;
  readonly capabilities: HostCapabilities;
  readonly root: string;
  readonly workspace: string;
  readonly #setup: AttemptSetup;
  readonly #commands: SandboxCommand[] = [];
  readonly #commandCgroups: string[] = [];
  readonly #pyenvRoot = hostPyenvRoot();

  constructor(setup: AttemptSetup) {
    this.#setup = setup;
    this.attemptId = setup.attemptId;
    this.capabilities = setup.capabilities;
    this.root = setup.dirs.root;
    this.workspace = setup.dirs.workspace;
  }

  spawn(command: string, options: SpawnOptions): SandboxCommand {
    if (options.terminal === 'pty') {
      throw new HangbenchError('SANDBOX', 'terminal: pty is not supported yet; run the case with terminal: pipe (stdin an open pipe)');
    }
    const { commandId } = options;
    const { cgroups, dirs, limits } = this.#setup;
    const cgroup = cgroups.v2 === null ? null : this.#commandCgroup(cgroups.v2, commandId);
    const env = scrubEnvironment({
      host: process.env,
      home: dirs.home,
      tmp: dirs.tmp,
      timeScale: this.#setup.timeScale,
      attemptId: this.attemptId,
      commandId,
      pyenvRoot: this.#pyenvRoot,
      extra: options.env,
    });
    const argv = launcherArgv({
      v2Procs: cgroup === null ? null : join(cgroup, 'cgroup.procs'),
      pidsProcs: cgroups.pids === null ? null : join(cgroups.pids, 'cgroup.procs'),
      ulimits: ulimitFlags(limits, this.capabilities.processLimit === 'rlimit'),
      isolateNetwork: this.#setup.isolateNetwork,
      nice: limits.nice,
    });
    const spawned = startCommand({
      commandId,
      command,
      argv,
      cwd: this.workspace,
      env: { ...env, HANGBENCH_CMD: command },
      graces: this.#setup.graces,
      makeTree: (root) =>
        cgroup === null ? scanTree(this.attemptId, commandId, root, this.capabilities.proc) : cgroupTree(cgroup, root),
    });
    this.#commands.push(spawned);
    return spawned;
  }

  /** A fresh cgroup per spawn, even when a commandId comes again: a reused one could hold a leftover. */
  #commandCgroup(attemptCgroup: string, commandId: number): string {
    for (let n = 1; ; n++) {
      const dir = join(attemptCgroup, n === 1 ? `cmd-${commandId}` : `cmd-${commandId}-${n}`);
      if (existsSync(dir)) continue;
      mkdirSync(dir);
      this.#commandCgroups.push(dir);
      return dir;
    }
  }

  resolvePath(relative: string): Promise<string> {
    return confinePath(this.workspace, relative);
  }

  async readFile(relative: string): Promise<string> {
    return readFile(await this.resolvePath(relative), 'utf8');
  }

  async writeFile(relative: string, content: string): Promise<number> {
    const target = await this.resolvePath(relative);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    return Buffer.byteLength(content);
  }

  overlay(sourceDir: string): Promise<void> {
    return overlayDir(this.workspace, sourceDir);
  }

  leakScan(): Promise<LeakReport> {
    return scanAndKillLeaks({
      attemptId: this.attemptId,
      proc: this.capabilities.proc,
      trees: this.#commands.map((command) => command.tree),
      pidsCgroup: this.#setup.cgroups.pids,
      timeoutMs: this.#setup.graces.afterKillMs,
    });
  }

  async dispose(): Promise<void> {
    // Normally leakScan left nothing; if it was skipped, kill what remains so the cgroups can go.
    await this.leakScan();
    for (const command of this.#commands) command.stdin.destroy();
    const { cgroups, graces, dirs } = this.#setup;
    // Children before parents: rmdir refuses a cgroup that still has child cgroups.
    for (const dir of [...this.#commandCgroups, cgroups.v2, cgroups.pids]) {
      if (dir === null) continue;
      if (cgroupProcs(dir).length > 0) cgroupKill(dir);
      await removeCgroup(dir, graces.afterKillMs);
    }
    await removeDirs(dirs);
  }
}

export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const graces = { ...DEFAULT_GRACES, ...options.killGraces };
  const { attemptId, capabilities } = options;
  const dirs = await prepareDirs(attemptId, options.workspaceSource);
  let cgroups: AttemptCgroups;
  try {
    cgroups = attemptCgroups(capabilities, attemptId, limits);
  } catch (error) {
    await removeDirs(dirs);
    throw new HangbenchError('SANDBOX', `could not create the cgroups of attempt ${attemptId}: ${(error as Error).message}`, { cause: error });
  }
  const isolateNetwork = capabilities.netns && options.network !== 'host';
  return new AttemptSandbox({ attemptId, capabilities, dirs, cgroups, limits, graces, timeScale: options.timeScale, isolateNetwork });
}
