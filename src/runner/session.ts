import path from 'node:path';
import { createMonitor, renderTick } from '../monitor/index.js';
import type { Monitor, MonitorEvent } from '../monitor/types.js';
import type { Sandbox, SandboxProcess } from '../sandbox/types.js';
import { countTokens } from '../agents/tokens.js';
import type { Observation } from '../agents/protocol.js';
import { keyBytes, type Action } from '../types/actions.js';
import type { Case, Onset } from '../types/case.js';
import { HangbenchError } from '../types/errors.js';
import type { KillDecider, KillRecord, SignalName, Tick } from '../types/process.js';
import { mergeTicks } from './merge-ticks.js';
import type { TraceWriter } from './trace-writer.js';

interface RunningCommand {
  readonly id: number;
  readonly process: SandboxProcess;
  readonly monitor: Monitor;
  readonly background: boolean;
  /** set when a kill is decided, before the tree is gone, so the exit it causes is marked killed. */
  killing: boolean;
  kill: KillRecord | null;
  /** the command is over, but the agent has not been told yet (it exited while the agent was deciding). */
  exited: boolean;
  /** ticks that fired since the agent last got one; delivered together so slow agents lose no output. */
  undelivered: Tick[];
}

export interface SessionDeps {
  readonly sandbox: Sandbox;
  readonly trace: TraceWriter;
  readonly testCase: Case;
  readonly intervalMs: number;
  /** the case onset with durations scaled; null for controls. */
  readonly onset: Onset | null;
  readonly logDir: string;
  readonly signal: AbortSignal;
}

const READ_LIMIT = 64 * 1024;
const EXIT_OUTPUT_BYTES = 4 * 1024;

/** Carries out agent actions in one attempt's sandbox; every command runs under a monitor. */
export class AttemptSession {
  private readonly deps: SessionDeps;
  /** commands running, or over but with their exit not yet delivered to the agent. */
  private readonly commands = new Map<number, RunningCommand>();
  private nextCommandId = 1;
  private edited = false;
  private onsetSeen = false;

  constructor(deps: SessionDeps) {
    this.deps = deps;
  }

  get testCase(): Case {
    return this.deps.testCase;
  }

  get hasEdited(): boolean {
    return this.edited;
  }

  /** ground truth for the oracle: the onset of a command started before any edit was seen. */
  get onsetHappened(): boolean {
    return this.onsetSeen;
  }

  async perform(action: Action): Promise<Observation> {
    try {
      return await this.dispatch(action);
    } catch (error) {
      if (error instanceof HangbenchError && error.code === 'PATH_ESCAPE') return failure(action, error.message);
      if (isNodeError(error)) return failure(action, `${action.type} failed: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
      throw error;
    }
  }

  private async dispatch(action: Action): Promise<Observation> {
    switch (action.type) {
      case 'run':
        return this.run(action.command, action.background ?? false);
      case 'wait': {
        const target = this.target();
        return target ? this.awaitNext(target) : failure(action, 'nothing is running; use run to start a command');
      }
      case 'kill':
        return this.killTarget(action.signal);
      case 'input':
        return this.input(action.text, action.keys ?? [], action.eof ?? false);
      case 'read': {
        const content = await this.deps.sandbox.readFile(action.path);
        const shown = content.length > READ_LIMIT ? `${content.slice(0, READ_LIMIT)}\n[… ${content.length - READ_LIMIT} more characters]` : content;
        return { type: 'result', action: 'read', ok: true, message: `${action.path}: ${content.length} characters`, content: shown };
      }
      case 'write':
        return this.writeFile(action.path, action.content, 'write');
      case 'edit': {
        const current = await this.deps.sandbox.readFile(action.path);
        const count = current.split(action.old).length - 1;
        if (count !== 1) return failure(action, `edit needs the old text exactly once in ${action.path}; found it ${count} times`);
        return this.writeFile(action.path, current.replace(action.old, () => action.new), 'edit');
      }
      case 'finish':
        return { type: 'result', action: 'finish', ok: true, message: 'finished' };
    }
  }

  private async run(command: string, background: boolean): Promise<Observation> {
    const foreground = this.live().find((cmd) => !cmd.background);
    if (foreground && !background) {
      return failure({ type: 'run' }, `command #${foreground.id} is still running; wait for it, kill it, or run with background: true`);
    }
    const id = this.nextCommandId++;
    const process = this.deps.sandbox.spawn(command, { commandId: id, terminal: this.deps.testCase.terminal });
    process.stdin.on('error', () => undefined);
    const isRepro = command.includes(this.deps.testCase.repro.trim());
    this.deps.trace.write({ type: 'command.start', commandId: id, command, pid: process.pid, background, isRepro });
    const monitor = createMonitor({
      process,
      intervalMs: this.deps.intervalMs,
      onset: this.onsetFor(command),
      logFile: path.join(this.deps.logDir, `command-${id}.log`),
    });
    // A previous foreground command that ended unseen is superseded: its exit is in the trace.
    for (const done of [...this.commands.values()].filter((cmd) => cmd.exited && !cmd.background)) this.commands.delete(done.id);
    const entry: RunningCommand = { id, process, monitor, background, killing: false, kill: null, exited: false, undelivered: [] };
    monitor.on((event: MonitorEvent) => this.record(entry, event));
    this.commands.set(id, entry);
    if (background) return { type: 'result', action: 'run', ok: true, message: `started #${id} in the background (pid ${process.pid})` };
    return this.awaitNext(entry);
  }

  /** Output onsets apply to any command; start/after onsets only to the repro itself. None after the first edit. */
  private onsetFor(command: string): Onset | null {
    const onset = this.deps.onset;
    if (onset === null || this.edited) return null;
    if ('output' in onset) return onset;
    return command.includes(this.deps.testCase.repro.trim()) ? onset : null;
  }

  private record(entry: RunningCommand, event: MonitorEvent): void {
    const trace = this.deps.trace;
    const commandId = entry.id;
    switch (event.type) {
      case 'output':
        trace.write({ type: 'output', commandId, bytes: event.bytes, totalBytes: event.totalBytes });
        return;
      case 'onset':
        this.onsetSeen = true;
        trace.write({ type: 'onset', commandId, elapsedMs: event.elapsedMs, trigger: event.trigger });
        return;
      case 'tick': {
        const { tick } = event;
        entry.undelivered.push(tick);
        const rendered = renderTick(tick);
        trace.write({
          type: 'tick',
          commandId,
          tickSeq: tick.seq,
          elapsedMs: tick.elapsedMs,
          sinceOutputMs: tick.sinceOutputMs,
          totalOutputBytes: tick.totalOutputBytes,
          output: tick.output,
          snapshot: tick.snapshot,
          classification: tick.classification,
          reason: tick.reason,
          rendered,
          renderedTokens: countTokens(rendered),
        });
        return;
      }
      case 'exit':
        entry.exited = true;
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

  private live(): RunningCommand[] {
    return [...this.commands.values()].filter((cmd) => !cmd.exited);
  }

  /** The foreground command (running, or with its exit undelivered), else the newest background one. */
  private target(): RunningCommand | undefined {
    const commands = [...this.commands.values()];
    return commands.find((cmd) => !cmd.background) ?? commands.at(-1);
  }

  /** Ticks that already fired are delivered at once (merged); otherwise waits for the next tick or the exit. */
  private async awaitNext(entry: RunningCommand): Promise<Observation> {
    if (entry.undelivered.length === 0 && !entry.exited) {
      const event = await entry.monitor.nextTickOrExit(this.deps.signal);
      if (event.type === 'tick' && !entry.undelivered.some((tick) => tick.seq === event.tick.seq)) entry.undelivered.push(event.tick);
    }
    if (entry.undelivered.length > 0) {
      const tick = mergeTicks(entry.undelivered.splice(0));
      return { type: 'tick', tick, text: renderTick(tick) };
    }
    return this.awaitExit(entry);
  }

  private async killTarget(signal: SignalName | undefined): Promise<Observation> {
    const target = this.target();
    if (!target) return failure({ type: 'kill' }, 'nothing is running');
    if (!target.exited) await this.kill(target, 'agent', 'kill action', signal ?? 'SIGINT');
    return this.awaitExit(target);
  }

  private async kill(entry: RunningCommand, by: KillDecider, reason: string, signal: SignalName = 'SIGINT'): Promise<void> {
    const decidedAt = this.deps.trace.now();
    entry.killing = true;
    const record = await entry.process.kill(by, reason, signal);
    entry.kill = record;
    this.deps.trace.write({ type: 'kill', commandId: entry.id, ...record }, decidedAt);
  }

  /** After a kill (or an exit already seen) waits, without the attempt's abort signal, for the exit; the agent is then told. */
  private async awaitExit(entry: RunningCommand): Promise<Observation> {
    for (;;) {
      const event = await entry.monitor.nextTickOrExit();
      if (event.type === 'exit') {
        this.commands.delete(entry.id);
        return { type: 'exit', commandId: entry.id, exit: event.exit, output: entry.monitor.tail(EXIT_OUTPUT_BYTES), kill: entry.kill };
      }
    }
  }

  /** Text, then keys as the terminal sends them, then end of input: closing a pipe, or ^D typed at a pty (which stays open). */
  private input(text: string | undefined, keys: readonly string[], eof: boolean): Observation {
    const target = this.target();
    if (!target || target.exited) return failure({ type: 'input' }, 'nothing is running to send input to');
    if (target.process.stdin.writableEnded) return failure({ type: 'input' }, `stdin of #${target.id} is already closed`);
    const terminal = target.process.terminal ?? 'pipe';
    const context = { terminal, applicationCursor: target.monitor.applicationCursorKeys };
    const typed = (text ?? '') + keys.map((key) => keyBytes(key, context)).join('') + (eof && terminal === 'pty' ? '\x04' : '');
    if (typed !== '') target.process.stdin.write(typed);
    if (eof && terminal === 'pipe') target.process.stdin.end();
    const notes = [`sent ${Buffer.byteLength(typed)} bytes to #${target.id}`];
    if (eof) notes.push(terminal === 'pty' ? 'ending with ^D (end of input at the terminal)' : 'and closed its stdin');
    // Without a terminal there is no line discipline: an agent expecting Ctrl-C to interrupt should be told.
    if (terminal === 'pipe' && keys.some((key) => key === 'ctrl-c' || key === 'ctrl-z')) {
      notes.push('(stdin is a pipe, not a terminal: control keys arrive as plain bytes and signal nothing; use kill to interrupt)');
    }
    return { type: 'result', action: 'input', ok: true, message: notes.join(' ') };
  }

  private async writeFile(file: string, content: string, via: 'write' | 'edit'): Promise<Observation> {
    const bytes = await this.deps.sandbox.writeFile(file, content);
    this.edited = true;
    this.deps.trace.write({ type: 'file.write', path: file, bytes, via });
    return { type: 'result', action: via, ok: true, message: `wrote ${bytes} bytes to ${file}` };
  }

  /** Kills every command still running (budget, harness shutdown, or an agent that finished with a command left). */
  async shutdown(by: KillDecider, reason: string): Promise<void> {
    const left = this.live();
    await Promise.all(
      left.map(async (entry) => {
        await this.kill(entry, by, reason, 'SIGTERM');
        await this.awaitExit(entry);
        entry.monitor.stop();
      }),
    );
  }
}

function failure(action: Pick<Action, 'type'>, message: string): Observation {
  return { type: 'result', action: action.type, ok: false, message };
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}
