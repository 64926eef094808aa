import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { HangbenchError } from '../types/errors.js';
import type { ExitInfo, KillDecider, KillRecord, SignalName } from '../types/process.js';
import { escalate } from './kill/escalate.js';
import type { ProcessTree, TreeRoot } from './kill/tree.js';
import type { KillGraces, SandboxProcess } from './types.js';
import type { Terminal } from '../types/terminal.js';

export interface CommandSpec {
  readonly commandId: number;
  readonly command: string;
  readonly argv: readonly [string, ...string[]];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly graces: KillGraces;
  readonly terminal: Terminal;
  readonly makeTree: (root: TreeRoot) => ProcessTree;
}

/**
 * One running command. The caller must read stdout and stderr (a monitor does): `exited` waits for both to reach
 * EOF, and an unread pipe would also make the program block on a full pipe — a hang the harness made itself.
 */
class SandboxCommand implements SandboxProcess {
  readonly commandId: number;
  readonly command: string;
  readonly terminal: Terminal;
  /** the process the harness spawned: the launcher, then what it execs (bash, script(1), or nsenter into a jail). */
  readonly spawnedPid: number;
  /** when the command was spawned, as epoch ms: the origin of its monitor's clock and of its exit's durationMs. */
  readonly startedAt: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly exited: Promise<ExitInfo>;
  readonly rootExited: Promise<ExitInfo>;
  readonly tree: ProcessTree;
  readonly #graces: KillGraces;
  #done = false;
  #killing: Promise<KillRecord> | null = null;

  constructor(spec: CommandSpec) {
    this.commandId = spec.commandId;
    this.command = spec.command;
    this.terminal = spec.terminal;
    this.#graces = spec.graces;
    const [file, ...args] = spec.argv;
    // One origin for both clocks, taken before spawn() (which can take tens of ms on a loaded host): a monitor deadline
    // at T never lands before the exit's durationMs says T passed.
    const started = performance.now();
    this.startedAt = performance.timeOrigin + started;
    // detached: its own session and process group, so Ctrl-C (SIGINT to the group) reaches it and not the harness.
    const child = spawn(file, args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    child.on('error', () => undefined);
    if (child.pid === undefined) {
      throw new HangbenchError(
        'SANDBOX',
        `could not start command ${spec.commandId} (${file} failed to spawn in ${spec.cwd})`,
      );
    }
    this.spawnedPid = child.pid;
    // A write after the program exited fails with EPIPE; that is the program's business, not a harness crash.
    child.stdin.on('error', () => undefined);
    this.stdin = child.stdin;
    this.stdout = child.stdout;
    this.stderr = child.stderr;
    this.tree = spec.makeTree({ pid: child.pid, reaped: () => child.exitCode !== null || child.signalCode !== null });
    // The root's own exit (in a jail, nsenter's, which ends with its child): an installed CLI is over then, whatever holds its pipes.
    this.rootExited = new Promise((resolve) => {
      child.on('exit', (exitCode, signal) =>
        resolve({ exitCode, signal, durationMs: Math.round(performance.now() - started) }),
      );
    });
    // 'close' comes after the exit AND the end of stdout/stderr: a grandchild holding a pipe keeps the command running.
    this.exited = new Promise((resolve) => {
      child.on('close', (exitCode, signal) => {
        this.#done = true;
        resolve({ exitCode, signal, durationMs: Math.round(performance.now() - started) });
      });
    });
  }

  get done(): boolean {
    return this.#done;
  }

  /** The command's root as the monitor shows it: in a jail, the first process inside rather than nsenter. */
  get pid(): number {
    return this.tree.shownRoot();
  }

  pids(): number[] {
    return this.tree.shownPids();
  }

  kill(by: KillDecider, reason: string, firstSignal: SignalName = 'SIGINT'): Promise<KillRecord> {
    if (this.#done) return Promise.resolve(nothingToKill(by, reason, this.tree));
    // Two deciders racing (agent and budget) share one escalation; the first reason is the one recorded.
    this.#killing ??= escalate(this.tree, { by, reason, firstSignal, graces: this.#graces }).finally(() => {
      this.#killing = null;
    });
    return this.#killing;
  }

  killLeftovers(by: KillDecider, reason: string): Promise<KillRecord> {
    if (!this.#done) return this.kill(by, reason, 'SIGTERM');
    return escalate(this.tree, { by, reason, firstSignal: 'SIGTERM', graces: this.#graces });
  }
}

function nothingToKill(by: KillDecider, reason: string, tree: ProcessTree): KillRecord {
  return {
    by,
    reason,
    mechanism: tree.mechanism,
    treeSize: 0,
    steps: [],
    escalatedToKill: false,
    goneMs: 0,
    survivors: [],
  };
}

export function startCommand(spec: CommandSpec): SandboxCommand {
  return new SandboxCommand(spec);
}

export type { SandboxCommand };
