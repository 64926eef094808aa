import path from 'node:path';
import type { Observation, ObservationBody } from '../agents/protocol.js';
import { createMonitor } from '../monitor/index.js';
import type { TickRenderer } from '../monitor/index.js';
import type { MonitorEvent } from '../monitor/index.js';
import type { ObservedProcess } from '../sandbox/index.js';
import type { Sandbox } from '../sandbox/index.js';
import type { Action } from '../types/actions.js';
import type { Case, Onset } from '../types/case.js';
import { HangbenchError } from '../types/errors.js';
import type { KillDecider, SignalName, Tick } from '../types/process.js';
import { DEFAULTS } from '../defaults.js';
import { withDeadline } from '../types/deadline.js';
import { pullsStatus, type MonitorMode } from '../modes/index.js';
import { formatDuration } from '../types/duration.js';
import { exitNotice, waitFor, type CommandEntry } from './command-entry.js';
import { fileAction } from './file-actions.js';
import { typeInput } from './keyboard-input.js';
import { failure } from './observations.js';
import { ObservedCommands, type TreeMoment } from './observed-commands.js';
import { deliverTicks } from './tick-delivery.js';
import type { TraceWriter } from '../trace/writer.js';
import { COMMAND_IDS } from '../types/command-ids.js';
import { commandLogName } from '../types/run-files.js';
import { wiredTerminal, type StdinWiring } from '../types/terminal.js';

export interface SessionDeps {
  readonly sandbox: Sandbox;
  readonly trace: TraceWriter;
  readonly testCase: Case;
  /** the variant's monitor mode, durations already scaled. */
  readonly mode: MonitorMode;
  /** the variant's `--stdin` wiring of the agent's commands; absent: the case's terminal. */
  readonly stdin?: StdinWiring;
  /** the agent's tick template applied to a tick: what it is shown, recorded as is. */
  readonly renderTick: TickRenderer;
  /** the case onset with durations scaled; null for controls. */
  readonly onset: Onset | null;
  readonly logDir: string;
  readonly signal: AbortSignal;
  /** how long shutdown waits for a killed command's exit before it gives up on it (default DEFAULTS.teardownWaitMs). */
  readonly teardownWaitMs?: number;
}

const EXIT_OUTPUT_BYTES = 4 * 1024;

/**
 * Carries out agent actions in one attempt's sandbox; every command runs under a monitor in the variant's mode.
 * This file is the command lifecycle (run, wait, poll, kill, exit); tick delivery, file actions and keyboard input
 * are tick-delivery.ts, file-actions.ts and keyboard-input.ts.
 */
export class AttemptSession {
  private readonly deps: SessionDeps;
  /** commands running, or over but with their exit not yet delivered to the agent. */
  private readonly commands = new Map<number, CommandEntry>();
  /** exits already delivered or announced, so a later wait or poll of that id is answered the same way. */
  private readonly done = new Map<number, Extract<ObservationBody, { type: 'exit' }>>();
  /** background commands that exited while the agent was busy elsewhere: announced with its next observation. */
  private readonly unannounced = new Set<number>();
  private nextCommandId: number = COMMAND_IDS.agent;
  /** installed agents: commands seen through the shell shim (observed-commands.ts). */
  private readonly observed: ObservedCommands;
  private closed = false;
  private edited = false;
  private onsetSeen = false;

  constructor(deps: SessionDeps) {
    this.deps = deps;
    this.observed = new ObservedCommands({ trace: deps.trace, mode: deps.mode, renderTick: deps.renderTick });
  }

  get testCase(): Case {
    return this.deps.testCase;
  }

  /** ground truth for the oracle: the onset of a command started before any edit was seen. */
  get onsetHappened(): boolean {
    return this.onsetSeen;
  }

  async perform(action: Action): Promise<Observation> {
    const body = await this.dispatchSafely(action);
    const about = body.type === 'exit' ? body.commandId : null;
    if (about !== null) this.unannounced.delete(about);
    const notices = [...this.unannounced].flatMap((id) => {
      const exit = this.takeExited(id);
      return exit ? [exitNotice(exit)] : [];
    });
    this.unannounced.clear();
    return notices.length > 0 ? { ...body, notices } : body;
  }

  private async dispatchSafely(action: Action): Promise<ObservationBody> {
    try {
      return await this.dispatch(action);
    } catch (error) {
      if (error instanceof HangbenchError && error.code === 'PATH_ESCAPE') return failure(action, error.message);
      if (isNodeError(error))
        return failure(action, `${action.type} failed: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
      throw error;
    }
  }

  private async dispatch(action: Action): Promise<ObservationBody> {
    switch (action.type) {
      case 'run':
        return this.run(action.command, action.background ?? false);
      case 'wait': {
        const target = this.target(action.id);
        if (target === 'done') return this.done.get(action.id ?? -1)!;
        if (!target)
          return failure(
            action,
            action.id === undefined ? 'nothing is running; use run to start a command' : `no command #${action.id}`,
          );
        return this.awaitNext(target, { timeoutMs: seconds(action.timeout), quietMs: seconds(action.until_quiet) });
      }
      case 'poll': {
        const target = this.target(action.id);
        if (target === 'done') return this.done.get(action.id ?? -1)!;
        if (!target)
          return failure(
            action,
            action.id === undefined ? 'nothing is running; use run to start a command' : `no command #${action.id}`,
          );
        return target.exited
          ? this.awaitExit(target)
          : this.deliver(target, [...target.undelivered.splice(0), target.monitor.status()], 'status');
      }
      case 'kill':
        return this.killTarget(action.id, action.signal);
      case 'input':
        return this.input(action.text, action.keys ?? [], action.eof ?? false);
      case 'read':
      case 'write':
      case 'edit':
        return fileAction(action, this.deps.sandbox, this.deps.trace, () => {
          this.edited = true;
        });
      case 'finish':
        return { type: 'result', action: 'finish', ok: true, message: 'finished' };
    }
  }

  private async run(command: string, asked: boolean): Promise<ObservationBody> {
    // In poll mode every command runs in the background: run returns at once and the agent asks for its status.
    const background = asked || pullsStatus(this.deps.mode);
    const foreground = this.live().find((cmd) => !cmd.background);
    if (foreground && !background) {
      return failure(
        { type: 'run' },
        `command #${foreground.id} is still running; wait for it, kill it, or run with background: true`,
      );
    }
    const id = this.nextCommandId++;
    const wired = wiredTerminal(this.deps.stdin, this.deps.testCase.terminal);
    const process = this.deps.sandbox.spawn(command, {
      commandId: id,
      terminal: wired.terminal,
      stdinNull: wired.stdinNull,
    });
    process.stdin.on('error', () => undefined);
    const isRepro = command.includes(this.deps.testCase.repro.trim());
    // the wiring the command was spawned with (not the one asked for), so a trace tells a pipe, /dev/null and a pty apart
    const stdin = wired.stdinNull ? 'null' : wired.terminal === 'pty' ? 'tty' : 'pipe';
    this.deps.trace.write({
      type: 'command.start',
      commandId: id,
      command,
      pid: process.pid,
      background,
      isRepro,
      stdin,
    });
    const monitor = createMonitor({
      process,
      mode: this.deps.mode,
      onset: this.onsetFor(command),
      logFile: path.join(this.deps.logDir, commandLogName(id)),
      cpuTimes: () => this.deps.sandbox.cpuTimes(),
    });
    // A previous foreground command that ended unseen is superseded: its exit is in the trace.
    for (const old of [...this.commands.values()].filter((cmd) => cmd.exited && !cmd.background))
      this.takeExited(old.id);
    const entry: CommandEntry = {
      id,
      process,
      monitor,
      background,
      killing: false,
      kill: null,
      killRecorded: null,
      exited: false,
      exit: null,
      undelivered: [],
    };
    monitor.on((event: MonitorEvent) => this.record(entry, event));
    this.commands.set(id, entry);
    if (background) {
      const how = pullsStatus(this.deps.mode)
        ? `poll {id: ${id}} for its status, wait {id: ${id}} to wait for it`
        : 'it runs in the background';
      return { type: 'result', action: 'run', ok: true, message: `started #${id} (pid ${process.pid}); ${how}` };
    }
    return this.awaitNext(entry, {});
  }

  /** Output onsets apply to any command; start/after onsets only to the repro itself. None after the first edit. */
  private onsetFor(command: string): Onset | null {
    const onset = this.deps.onset;
    if (onset === null || this.edited) return null;
    if ('output' in onset) return onset;
    return command.includes(this.deps.testCase.repro.trim()) ? onset : null;
  }

  private record(entry: CommandEntry, event: MonitorEvent): void {
    const trace = this.deps.trace;
    const commandId = entry.id;
    switch (event.type) {
      case 'output':
        trace.write({ type: 'output', commandId, bytes: event.bytes, totalBytes: event.totalBytes });
        return;
      case 'onset':
        this.onsetSeen = true;
        trace.write({
          type: 'onset',
          commandId,
          elapsedMs: event.elapsedMs,
          trigger: event.trigger,
          ...cpuWait(event.cpuWaitMs),
        });
        return;
      case 'tick':
        if (this.observed.has(commandId)) {
          this.observed.tick(commandId, event.tick);
          return;
        }
        // Recorded when delivered, as the agent sees it (merged with any others that fired while it was deciding).
        entry.undelivered.push(event.tick);
        return;
      case 'timeout':
        if (!entry.killing)
          void this.kill(
            entry,
            'timeout',
            `timeout mode: still running after ${formatDuration(event.afterMs)}`,
            'SIGTERM',
          ).catch((error: unknown) =>
            // an agent's kill action fails the attempt with this error; the mode's own kill is recorded in the trace
            trace.write({
              type: 'error',
              where: 'kill',
              message: `timeout mode's kill of #${commandId}: ${String(error)}`,
            }),
          );
        return;
      case 'exit':
        entry.exited = true;
        entry.exit = event.exit;
        if (entry.background) this.unannounced.add(commandId);
        this.observed.exited(entry, event.exit);
        trace.write({
          type: 'command.exit',
          commandId,
          exitCode: event.exit.exitCode,
          signal: event.exit.signal,
          durationMs: event.exit.durationMs,
          killed: entry.killing,
        });
    }
  }

  /**
   * An installed agent's command, started by its own tool and seen through the shell shim: watched by a monitor in the
   * variant's mode like any command, but nobody waits on it here — its ticks are recorded as they fire.
   */
  observe(process: ObservedProcess, inband: ((text: string) => boolean) | null): void {
    if (this.closed) return;
    const id = process.commandId;
    this.nextCommandId = Math.max(this.nextCommandId, id + 1);
    const isRepro = process.command.includes(this.deps.testCase.repro.trim());
    this.deps.trace.write({
      type: 'command.start',
      commandId: id,
      command: process.command,
      pid: process.pid,
      background: false,
      isRepro,
    });
    // its ticks run on its own processes' clock (schedstat): the CLI spawned them, not the sandbox
    const monitor = createMonitor({
      process,
      mode: this.deps.mode,
      onset: this.onsetFor(process.command),
      logFile: path.join(this.deps.logDir, commandLogName(id)),
    });
    const entry: CommandEntry = {
      id,
      process,
      monitor,
      background: false,
      killing: false,
      kill: null,
      killRecorded: null,
      exited: false,
      exit: null,
      undelivered: [],
    };
    this.observed.add(entry, process, inband, isRepro);
    monitor.on((event: MonitorEvent) => this.record(entry, event));
    this.commands.set(id, entry);
  }

  /** The id the next observed command gets. */
  takeCommandId(): number {
    return this.nextCommandId++;
  }

  /** The observed repro's processes alive now, into the trace (left_after_tool, left_after_exit). */
  lookAtRepros(moment: TreeMoment): void {
    this.observed.lookAtRepros(moment);
  }

  private deliver(entry: CommandEntry, ticks: readonly Tick[], source: 'schedule' | 'status'): ObservationBody {
    return deliverTicks(entry.id, ticks, source, this.deps.renderTick, this.deps.trace);
  }

  private live(): CommandEntry[] {
    return [...this.commands.values()].filter((cmd) => !cmd.exited);
  }

  /** By id; else the foreground command (running, or with its exit undelivered), else the newest background one. */
  private target(id?: number): CommandEntry | 'done' | undefined {
    if (id !== undefined) return this.commands.get(id) ?? (this.done.has(id) ? 'done' : undefined);
    const commands = [...this.commands.values()];
    return commands.find((cmd) => !cmd.background) ?? commands.at(-1);
  }

  /** Ticks that already fired are delivered at once (merged); otherwise waits for a tick, the exit, the timeout or the quiet. */
  private async awaitNext(
    entry: CommandEntry,
    until: { readonly timeoutMs?: number; readonly quietMs?: number },
  ): Promise<ObservationBody> {
    if (entry.undelivered.length === 0 && !entry.exited) {
      const woke = await waitFor(entry, until, this.deps.signal);
      if (woke.type === 'timer' && !entry.exited)
        return this.deliver(entry, [...entry.undelivered.splice(0), entry.monitor.status()], 'status');
    }
    if (entry.undelivered.length > 0) return this.deliver(entry, entry.undelivered.splice(0), 'schedule');
    return this.awaitExit(entry);
  }

  private async killTarget(id: number | undefined, signal: SignalName | undefined): Promise<ObservationBody> {
    const target = this.target(id);
    if (target === 'done') return this.done.get(id ?? -1)!;
    if (!target) return failure({ type: 'kill' }, id === undefined ? 'nothing is running' : `no command #${id}`);
    if (!target.exited) await this.kill(target, 'agent', 'kill action', signal ?? 'SIGINT');
    return this.awaitExit(target);
  }

  private async kill(
    entry: CommandEntry,
    by: KillDecider,
    reason: string,
    signal: SignalName = 'SIGINT',
  ): Promise<void> {
    const decidedAt = this.deps.trace.now();
    // How far the command's tick clock had fallen behind the wall when the kill was decided (the interrupt latency's).
    const lost = cpuWait(entry.monitor.cpuWaitMs() ?? undefined);
    entry.killing = true;
    const recorded = entry.process.kill(by, reason, signal).then((record) => {
      entry.kill = record;
      this.deps.trace.write({ type: 'kill', commandId: entry.id, ...record, ...lost }, decidedAt);
    });
    // only a barrier for those who wait on the record: the kill's own caller gets the error from `await recorded`
    entry.killRecorded = recorded.catch(() => undefined);
    await recorded;
  }

  /**
   * After a kill (or an exit already seen) waits, without the attempt's abort signal, for the exit, and for the kill
   * that caused it to be recorded (a SIGTERM can end the tree before the kill's escalation returns); the agent is
   * then told, with who killed it and why.
   */
  private async awaitExit(entry: CommandEntry): Promise<ObservationBody> {
    for (;;) {
      const event = await entry.monitor.nextTickOrExit();
      if (event.type !== 'exit') continue;
      await entry.killRecorded;
      return this.takeExited(entry.id) ?? failure({ type: 'wait' }, `command #${entry.id} is gone`);
    }
  }

  /** The exit observation of a command that is over; it leaves the running set, and ticks it never delivered are recorded as dropped. */
  private takeExited(id: number): Extract<ObservationBody, { type: 'exit' }> | undefined {
    const entry = this.commands.get(id);
    if (!entry) return this.done.get(id);
    if (!entry.exit) return undefined;
    this.commands.delete(id);
    if (entry.undelivered.length > 0) {
      const dropped = entry.undelivered.splice(0);
      this.deps.trace.write({
        type: 'tick.dropped',
        commandId: id,
        tickSeqs: dropped.map((tick) => tick.seq),
        classification: dropped.at(-1)!.classification,
      });
    }
    const exit = {
      type: 'exit',
      commandId: id,
      exit: entry.exit,
      output: entry.monitor.tail(EXIT_OUTPUT_BYTES),
      kill: entry.kill,
    } as const;
    this.done.set(id, exit);
    return exit;
  }

  /** Input goes to the foreground command (or the newest background one). */
  private input(text: string | undefined, keys: readonly string[], eof: boolean): ObservationBody {
    const target = this.target();
    if (!target || target === 'done' || target.exited)
      return failure({ type: 'input' }, 'nothing is running to send input to');
    return typeInput(target, text, keys, eof);
  }

  /** Kills every command still running (budget, harness shutdown, or an agent that finished with a command left). */
  async shutdown(by: KillDecider, reason: string, signal: SignalName = 'SIGTERM'): Promise<void> {
    this.closed = true;
    const left = this.live();
    const waitMs = this.deps.teardownWaitMs ?? DEFAULTS.teardownWaitMs;
    await Promise.all(
      left.map(async (entry) => {
        // An observed command whose shim already reported (or went) is over: its exit is on its way, not to be killed.
        if (!entry.killing && !entry.process.done) await this.kill(entry, by, reason, signal);
        // The exit is the process's (or, observed, the shim's report): something outside the harness, so it has a deadline.
        const waited = await withDeadline(this.awaitExit(entry), {
          what: `command #${entry.id}'s exit after its kill`,
          ms: waitMs,
        });
        if (waited.state === 'expired') {
          this.deps.trace.write({ type: 'wait.expired', what: waited.what, waitedMs: waited.waitedMs });
          // An observed command is ended here, its exit unknown, so its command.exit is still written.
          if (this.observed.giveUp(entry.id))
            await withDeadline(this.awaitExit(entry), {
              what: `command #${entry.id}'s exit once given up on`,
              ms: waitMs,
            });
        }
        entry.monitor.stop();
      }),
    );
    for (const entry of [...this.commands.values()]) this.takeExited(entry.id);
  }
}

function seconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : value * 1000;
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

/** A record's `cpuWaitMs` when the command's monitor keeps a CPU-available clock; nothing otherwise. */
function cpuWait(ms: number | undefined): { cpuWaitMs?: number } {
  return ms === undefined ? {} : { cpuWaitMs: ms };
}
