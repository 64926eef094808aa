import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import type { ExitInfo, KillDecider, KillRecord, SignalName } from '../types/process.js';
import { DEFAULTS } from '../defaults.js';
import { escalate } from './escalate.js';
import { isLive, readStat } from './proc.js';
import { sendSignal } from './signals.js';
import type { ProcessTree } from './tree.js';
import type { KillGraces, SandboxProcess } from './types.js';

const TAIL_MS = 20;

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
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) if (child !== '') queue.push(Number(child));
      } catch {
        // the thread is gone
      }
    }
  }
  return found;
}

/** The command's own processes: the shim's descendants without the shim and the `tee`s copying its output for the harness. */
function readStatPpid(pid: number): number | null {
  return readStat(pid)?.ppid ?? null;
}

function observedTree(root: number, outputFile: string): ProcessTree {
  const helper = (pid: number): boolean => {
    try {
      return pid === root || readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(outputFile);
    } catch {
      return true;
    }
  };
  const pids = (): number[] => descendants(root).filter((pid) => !helper(pid));
  const signalEach = (list: readonly number[], signal: SignalName): void => {
    for (const pid of list) sendSignal(pid, signal);
  };
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
  readonly #timer: NodeJS.Timeout;
  readonly #graces: KillGraces;
  readonly #tree: ProcessTree;

  /** `outputFile` as the host sees it; `insideOutputFile` as the shim inside the sandbox names it (its tee's argument). */
  constructor(options: { commandId: number; command: string; hostPid: number; outputFile: string; insideOutputFile?: string; graces?: KillGraces }) {
    this.commandId = options.commandId;
    this.command = options.command;
    this.shimPid = options.hostPid;
    this.#outputFile = options.outputFile;
    this.#graces = options.graces ?? DEFAULTS.killGraces;
    this.#tree = observedTree(options.hostPid, options.insideOutputFile ?? options.outputFile);
    this.exited = new Promise((resolve) => (this.#resolve = resolve));
    this.#timer = setInterval(() => this.#drain(), TAIL_MS);
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
    this.stdout.end();
    this.stderr.end();
    const info = { exitCode: exit.exitCode, signal: exit.signal, durationMs: performance.now() - this.startedAt };
    // After the streams' end events, as a spawned command's exit comes after its EOF.
    setImmediate(() => this.#resolve(info));
  }

  #drain(): void {
    let fd: number;
    try {
      fd = openSync(this.#outputFile, 'r');
    } catch {
      return;
    }
    try {
      const buffer = Buffer.alloc(64 * 1024);
      for (;;) {
        const read = readSync(fd, buffer, 0, buffer.length, this.#offset);
        if (read <= 0) break;
        this.#offset += read;
        this.stdout.write(Buffer.from(buffer.subarray(0, read)));
      }
    } finally {
      closeSync(fd);
    }
  }
}
