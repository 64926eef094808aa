import type { Readable, Writable } from 'node:stream';
import type { Bridge, BridgeOptions, BridgeTarget } from './net/bridge.js';
import type { ExitInfo, Isolation, KillDecider, KillMechanism, KillRecord, SignalName } from '../types/process.js';
import type { Terminal } from '../types/terminal.js';

export type { Isolation } from '../types/process.js';

/** What the host offers, probed once per run and recorded in the run's metadata. */
export interface HostCapabilities {
  readonly platform: NodeJS.Platform;
  readonly proc: boolean;
  readonly mechanism: KillMechanism;
  /** cgroup v2 directory the harness creates attempt cgroups under, when mechanism is cgroup-v2. */
  readonly cgroupRoot: string | null;
  /** cgroup v1 `pids` controller directory used for the process limit, when available. */
  readonly pidsCgroupRoot: string | null;
  /** cgroup v1 `cpu` directory: one group per attempt, so a fork bomb weighs as one process against the harness. */
  readonly cpuCgroupRoot: string | null;
  /** cgroup v1 `memory` directory: memory.limit_in_bytes bounds the whole attempt, not each process. */
  readonly memoryCgroupRoot: string | null;
  /** true when `unshare --net` works, so fixtures get no network in the host-user fallback (a bubblewrap jail makes its own). */
  readonly netns: boolean;
  /** how the process-count limit is enforced: 'pids-cgroup', 'rlimit' (non-root), or 'none'. */
  readonly processLimit: 'pids-cgroup' | 'rlimit' | 'none';
  /** true when `terminal: pty` commands can run (script(1) from util-linux works); absent counts as false. */
  readonly pty?: boolean;
  /**
   * 'bubblewrap': every command runs in a bwrap sandbox (own PID, mount, network namespaces; the project, cases and
   * results invisible; an unprivileged user). 'host-user': the fallback — the harness's user on the host's filesystem.
   */
  readonly isolation: Isolation;
  /** which cgroup version bounds each resource of an attempt, or null where nothing does. */
  readonly cgroupLimits: CgroupLimits;
  readonly notes: readonly string[];
}

export interface CgroupLimits {
  /** pids.max */
  readonly pids: 'v1' | 'v2' | null;
  /** v1 memory.limit_in_bytes, or v2 memory.max + memory.swap.max */
  readonly memory: 'v1' | 'v2' | null;
  /** v1 cpu.shares, or v2 cpu.weight: the attempt weighs as one group however many processes it forks */
  readonly cpu: 'v1' | 'v2' | null;
}

export interface ResourceLimits {
  /** max processes/threads in the attempt. */
  readonly processes: number;
  /** address space per process, bytes. */
  readonly addressSpaceBytes: number;
  /** memory (RSS + page cache) of the whole attempt, bytes, where a memory cgroup exists; the OOM killer enforces it. */
  readonly memoryBytes: number;
  /** largest file a process may write, bytes. */
  readonly fileSizeBytes: number;
  /** CPU seconds per process. */
  readonly cpuSeconds: number;
  /** nice value for sandboxed programs (the harness stays at 0). */
  readonly nice: number;
  /**
   * How else the programs yield the CPU to the harness (docs/performance.md): 'nice' the nice value alone; 'batch' and
   * 'idle' also SCHED_BATCH / SCHED_IDLE, set inside the jail; 'group-low' and 'group-idle' the attempt's cpu cgroup at
   * the lowest weight or cpu.idle 1, where there is one. HANGBENCH_CPU_PRIORITY overrides it.
   */
  readonly cpuPriority: CpuPriority;
}

export const CPU_PRIORITIES = ['nice', 'batch', 'idle', 'group-low', 'group-idle'] as const;
export type CpuPriority = (typeof CPU_PRIORITIES)[number];

export interface SpawnOptions {
  /** stable id of the command within the attempt (1, 2, …). */
  readonly commandId: number;
  /** 'pipe' (default): stdin an open pipe; 'pty': a pseudo-terminal of 80×24, TERM=xterm-256color. */
  readonly terminal?: Terminal;
  /** a pipe command's stdin is /dev/null instead of an open pipe (the `--stdin null` wiring); input sent goes nowhere. */
  readonly stdinNull?: boolean;
  /** extra environment, on top of the scrubbed one (e.g. for verify). */
  readonly env?: Readonly<Record<string, string>>;
}

/** One command running as `bash -c` (under script(1) for a pty) in its own killable process tree. */
export interface SandboxProcess {
  readonly commandId: number;
  readonly command: string;
  /** pid of the process the harness spawned (the tree's root as the host sees it). */
  readonly pid: number;
  readonly startedAt: number;
  /**
   * How the command's stdin/stdout are wired (absent: 'pipe'). 'pty': the command runs on a pseudo-terminal; what is
   * written to `stdin` is typed at it (bytes pass the line discipline: ^C signals, Enter is \r, end() types ^D), and
   * everything the terminal shows, stderr included, arrives on `stdout` with \r\n line ends.
   */
  readonly terminal?: Terminal;
  /** stdin is an open pipe (or, for a pty, the keyboard); `input` writes here. */
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /**
   * Resolves when the command is over as a terminal would see it: the root exited AND stdout/stderr reached EOF
   * (a grandchild holding the pipe keeps it open — that is a hang).
   */
  readonly exited: Promise<ExitInfo>;
  /** true once `exited` resolved. */
  readonly done: boolean;
  /** Resolves when the root process itself exited, before its pipes reach EOF (absent: only `exited` is known). */
  readonly rootExited?: Promise<ExitInfo>;
  /** host pids of every live process in the tree (zombies excluded), from the cgroup or a /proc scan. */
  pids(): number[];
  /** Kill the whole tree: the requested signal first (SIGINT by default), then TERM(+CONT), then KILL; each step recorded. */
  kill(by: KillDecider, reason: string, firstSignal?: SignalName): Promise<KillRecord>;
  /** Like kill (SIGTERM first), but also once the command is over: what it left running in its tree (an installed agent's daemons). */
  killLeftovers?(by: KillDecider, reason: string): Promise<KillRecord>;
}

/** What verify needs of a sandbox: somewhere to run a command. */
export type CommandRunner = Pick<Sandbox, 'spawn'>;

/** What the attempt's processes got of the CPUs so far: Sandbox.cpuTimes(). */
export interface CpuTimes {
  /** ms some process of the attempt waited runnable for a core. */
  readonly waitedMs: number;
  /** ms its processes ran on a core (summed over cores). */
  readonly ranMs: number;
}

/** A limit of the sandbox (not a budget of the agent) that refused the program something. */
export interface SandboxLimitHit {
  readonly kind: 'processes' | 'memory';
  readonly limit: number;
  /** forks refused (pids.events `max`), or processes the OOM killer ended (memory.oom_control `oom_kill`). */
  readonly hits: number;
}

export interface LeakReport {
  readonly clean: boolean;
  /** processes of the attempt found still running (then killed). */
  readonly leaked: readonly { readonly pid: number; readonly command: string }[];
}

export interface Sandbox {
  readonly attemptId: string;
  /** temp dir holding workspace/, home/, tmp/. */
  readonly root: string;
  /** absolute path of the agent's workspace copy. */
  readonly workspace: string;
  readonly capabilities: HostCapabilities;
  spawn(command: string, options: SpawnOptions): SandboxProcess;
  /**
   * Where verify runs, with `hiddenDirs` copied over the agent's final workspace, in order (a later one wins). Under bubblewrap a fresh sandbox of its
   * own (a copy of the workspace, new HOME, /tmp and namespaces): the agent's sandbox never contains hidden/, and what
   * the agent left running cannot touch the checks. In the fallback, the agent's own workspace with hidden/ overlaid.
   */
  forVerify(...hiddenDirs: string[]): Promise<CommandRunner>;
  /**
   * A TCP endpoint on 127.0.0.1 inside the attempt's sandbox (its network namespace) that the harness forwards to a
   * host Unix socket or loopback port: how a sandboxed program reaches a host-side proxy by base URL. Closed by
   * dispose(). In the host-user fallback it listens on the host's loopback (reachable by commands run with network 'host').
   */
  openBridge(target: BridgeTarget, options?: BridgeOptions): Promise<Bridge>;
  /**
   * The host pid of a process that a command sees (and prints, as `$$` or `$!`) as `pidInside`. Under bubblewrap the
   * attempt has its own PID namespace, so the two differ; the monitor, kills and ticks use host pids. Null when no
   * process of the agent's sandbox has that pid; in the fallback the pid itself.
   */
  hostPid(pidInside: number): number | null;
  /** Resolves an agent-supplied path inside the workspace; throws HangbenchError('PATH_ESCAPE') for `..`, absolute paths and symlinks out. */
  resolvePath(relative: string): Promise<string>;
  readFile(relative: string): Promise<string>;
  writeFile(relative: string, content: string): Promise<number>;
  /** Copies a folder's files over the workspace (hidden/ before verify). */
  overlay(sourceDir: string): Promise<void>;
  /** Finds anything of the attempt still running (cgroup + /proc scan for the attempt marker), kills it, reports it. */
  leakScan(): Promise<LeakReport>;
  /** Waits, up to the kill grace, until every ended process of the attempt is reaped: zombies still count against the process limit. */
  settle(): Promise<void>;
  /** Which sandbox limits (processes, memory) refused the attempt something; read before dispose. */
  limitHits(): readonly SandboxLimitHit[];
  /** Why the attempt's sandbox ended under it (bwrap or its PID 1 killed from outside), or null while it stands. */
  lost(): string | null;
  /**
   * ms the attempt's processes have waited runnable for a core, and run on one, since the sandbox stood. Its cgroup's
   * cpu.pressure and cpu.stat where cgroup v2 and PSI are there (every process, however short-lived); else the
   * schedstat growth of the processes each call finds alive. Neither ever decreases.
   */
  cpuTimes(): CpuTimes;
  /** SIGKILLs every process of the attempt at once, synchronously: the last resort when a graceful kill did not end it. */
  killNow(): void;
  /** Removes the temp dir and cgroups. Call after leakScan. */
  dispose(): Promise<void>;
}

/** How long each kill escalation step waits for the tree to go before the next, stronger one. */
export interface KillGraces {
  /** after the first signal (SIGINT by default) to the process group. */
  readonly afterFirstMs: number;
  /** after SIGTERM + SIGCONT to every process of the tree. */
  readonly afterTermMs: number;
  /** after SIGKILL, before the remaining processes are reported as survivors (also the leak scan's patience). */
  readonly afterKillMs: number;
}

export interface SandboxOptions {
  readonly attemptId: string;
  /** the fixture's workspace/ folder to copy. */
  readonly workspaceSource: string;
  readonly timeScale: number;
  readonly limits?: Partial<ResourceLimits>;
  /** Pass probeHost()'s answer; a copy with mechanism 'process-group+scan' forces the fallback (tests do). */
  readonly capabilities: HostCapabilities;
  readonly killGraces?: Partial<KillGraces>;
  /** 'none' (default): a network namespace with only loopback, where the host has one; 'host': the host network. */
  readonly network?: 'none' | 'host';
  /**
   * More host paths in the agent's jail (not verify's): an installed agent's package, the model proxy's socket, the shell
   * shim over /usr/bin/bash. Needs bubblewrap; in the host-user fallback createSandbox refuses them.
   */
  readonly binds?: readonly { readonly from: string; readonly to: string; readonly writable: boolean }[];
}
