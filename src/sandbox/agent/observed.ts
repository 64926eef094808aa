import { closeSync, openSync, readSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import type { ExitInfo, KillDecider, KillRecord, SignalName } from '../../types/process.js';
import { DEFAULTS } from '../../defaults.js';
import { escalate } from '../kill/escalate.js';
import { childrenOf, isLive, readPidFile, readStat, threadIds } from '../../proc/index.js';
import { signalEach } from '../kill/signals.js';
import type { ProcessTree } from '../kill/tree.js';
import type { KillGraces, SandboxProcess } from '../types.js';

/** ms between two reads of the output's tail. */
const TAIL_MS = 20;
/**
 * Tails between two walks of the command's tree (every 100 ms). In a profile of the harness running the 7-CLI
 * matrix, walking it with each tail — the stat, the children of every thread and the command line of every process,
 * every 20 ms for each running command — took over half of the harness's CPU, and a fresh zeroed buffer for each
 * tail a sixth.
 */
const TAILS_PER_LOOK = 5;
/** One read buffer for every observed command's tail: what is read is copied before the next read. */
const tailBuffer = Buffer.allocUnsafe(64 * 1024);

/** How an observed command ended, as its shell shim reported it (or, when the shim itself was killed, as inferred). */
export interface ObservedExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** true: the shim itself got the signal, so it went to the command's whole process group (the agent's tool, typically). */
  readonly toGroup: boolean;
  /** true: the shim could not report (SIGKILL reaches it too); the exit was seen as its pid going. */
  readonly inferred: boolean;
}

/** Host pids of `root` and every descendant (from /proc/<pid>/task/<tid>/children), zombies left out. */
export function descendants(root: number): number[] {
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (!isLive(pid)) continue;
    found.push(pid);
    // a thread that is gone has no children to add
    for (const task of threadIds(pid)) queue.push(...(childrenOf(pid, Number(task)) ?? []));
  }
  return found;
}

function readStatPpid(pid: number): number | null {
  return readStat(pid)?.ppid ?? null;
}

/** A process of the command as once seen: its start time tells it apart from a later process given the same pid. */
export interface SeenProcess {
  readonly pid: number;
  readonly command: string;
}

/** Field 22 of /proc/<pid>/stat (clock ticks after boot), or null once the pid is gone or a zombie. */
function liveStartTime(pid: number): string | null {
  const text = readPidFile(pid, 'stat');
  if (text === null) return null;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return fields[0] === 'Z' || fields[0] === 'X' ? null : (fields[19] ?? null);
}

function commandLine(pid: number): string {
  return (readPidFile(pid, 'cmdline', 'utf8') ?? '').split('\0').filter(Boolean).join(' ');
}

/** The command's own processes: the shim's descendants without the shim and the `tee`s copying its output for the harness. */
function observedTree(root: number, outputFile: string): ProcessTree {
  const helper = (pid: number): boolean => {
    if (pid === root) return true;
    const argv = readPidFile(pid, 'cmdline', 'utf8')?.split('\0');
    return argv === undefined || argv.includes(outputFile);
  };
  const pids = (): number[] => descendants(root).filter((pid) => !helper(pid));
  return {
    mechanism: 'process-group+scan',
    pids,
    signalGroup: (signal) => signalEach(pids(), signal),
    signalEach,
    killAll: () => signalEach(pids(), 'SIGKILL'),
    shownRoot: () => root,
    shownPids: pids,
  };
}

/**
 * A command an installed agent started itself, seen through the shell shim: not spawned by the harness, so its output
 * is the shim's copy (a file the shim's `tee` appends to, tailed here), its exit is what the shim reports, and its tree
 * is the shim's pid and every descendant. It satisfies SandboxProcess so the monitor samples and classifies it as any
 * other command; `stdin` takes nothing (the agent's tool owns the real one).
 */
export class ObservedProcess implements SandboxProcess {
  readonly commandId: number;
  readonly command: string;
  /** the shim's host pid. */
  readonly shimPid: number;
  #root: number | null = null;
  readonly startedAt = performance.now();
  readonly terminal = 'pipe' as const;
  readonly stdin = new Writable({ write: (_chunk, _encoding, done) => done() });
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly exited: Promise<ExitInfo>;
  #done = false;
  #resolve!: (exit: ExitInfo) => void;
  readonly #outputFile: string;
  #offset = 0;
  /** the output file, open from its first successful read until the command is finished. */
  #fd: number | null = null;
  #tails = 0;
  readonly #timer: NodeJS.Timeout;
  readonly #graces: KillGraces;
  readonly #tree: ProcessTree;
  /** every process of the command seen so far, by pid, with its start time; looked at with each tail of the output. */
  readonly #seen = new Map<number, { start: string; command: string }>();
  #lastTreeSize = 0;

  /** `outputFile` as the host sees it; `insideOutputFile` as the shim inside the sandbox names it (its tee's argument). */
  constructor(options: {
    commandId: number;
    command: string;
    hostPid: number;
    outputFile: string;
    insideOutputFile?: string;
    graces?: KillGraces;
  }) {
    this.commandId = options.commandId;
    this.command = options.command;
    this.shimPid = options.hostPid;
    this.#outputFile = options.outputFile;
    this.#graces = options.graces ?? DEFAULTS.killGraces;
    this.#tree = observedTree(options.hostPid, options.insideOutputFile ?? options.outputFile);
    this.exited = new Promise((resolve) => (this.#resolve = resolve));
    this.#timer = setInterval(() => {
      this.#drain();
      if (this.#tails++ % TAILS_PER_LOOK === 0) this.#look();
    }, TAIL_MS);
  }

  /** How many of its processes were alive at the last look before the shim reported the exit. */
  get lastTreeSize(): number {
    return this.#lastTreeSize;
  }

  /**
   * The command's processes seen at any time that are alive now (the same process: the same start time), descendants
   * of the shim or not any more — what a tool that returned, or ended only the leader, left running.
   */
  alive(): SeenProcess[] {
    if (!this.#done) this.#look();
    // Named as they are now: a process first seen between its fork and its exec had its parent's command line then.
    return [...this.#seen]
      .filter(([pid, seen]) => liveStartTime(pid) === seen.start)
      .map(([pid, seen]) => ({ pid, command: commandLine(pid) || seen.command }));
  }

  #look(): void {
    const pids = this.#tree.pids();
    this.#lastTreeSize = pids.length;
    for (const pid of pids) {
      if (this.#seen.has(pid)) continue;
      const start = liveStartTime(pid);
      if (start !== null) this.#seen.set(pid, { start, command: commandLine(pid) });
    }
  }

  /** The command's root as the monitor shows it: the shell the shim started, once it runs; the shim until then. */
  get pid(): number {
    if (this.#root === null) this.#root = this.#tree.pids().find((pid) => readStatPpid(pid) === this.shimPid) ?? null;
    return this.#root ?? this.shimPid;
  }

  get done(): boolean {
    return this.#done;
  }

  pids(): number[] {
    return this.#tree.pids();
  }

  kill(by: KillDecider, reason: string, firstSignal: SignalName = 'SIGINT'): Promise<KillRecord> {
    return escalate(this.#tree, { by, reason, firstSignal, graces: this.#graces });
  }

  killLeftovers(by: KillDecider, reason: string): Promise<KillRecord> {
    return escalate(this.#tree, { by, reason, firstSignal: 'SIGTERM', graces: this.#graces });
  }

  /** The shim reported the exit (or its pid went without a report): the rest of the output, then EOF, then `exited`. */
  finish(exit: ObservedExit): void {
    if (this.#done) return;
    this.#done = true;
    clearInterval(this.#timer);
    this.#drain();
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
    this.stdout.end();
    this.stderr.end();
    const info = { exitCode: exit.exitCode, signal: exit.signal, durationMs: performance.now() - this.startedAt };
    // After the streams' end events, as a spawned command's exit comes after its EOF.
    setImmediate(() => this.#resolve(info));
  }

  #drain(): void {
    if (this.#fd === null) {
      try {
        this.#fd = openSync(this.#outputFile, 'r');
      } catch {
        return; // the shim has not made it yet
      }
    }
    for (;;) {
      const read = readSync(this.#fd, tailBuffer, 0, tailBuffer.length, this.#offset);
      if (read <= 0) break;
      this.#offset += read;
      this.stdout.write(Buffer.from(tailBuffer.subarray(0, read)));
    }
  }
}
