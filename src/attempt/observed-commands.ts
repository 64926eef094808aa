import type { TickRenderer } from '../monitor/index.js';
import { ticksInOutput, type MonitorMode } from '../modes/index.js';
import type { ObservedProcess } from '../sandbox/index.js';
import type { ExitInfo, Tick } from '../types/process.js';
import type { TraceWriter } from '../trace/writer.js';
import type { CommandEntry } from './command-entry.js';
import { recordObservedTick } from './tick-delivery.js';

/** When the harness looks at an observed command's processes for the shell-tool scores: a model call, or the CLI's exit. */
export type TreeMoment = { readonly at: 'model.request'; readonly request: number } | { readonly at: 'agent.exit' };

interface Observed {
  readonly entry: CommandEntry;
  readonly process: ObservedProcess;
  /** how an in-band tick is written into the command's output, or null. */
  readonly inband: ((text: string) => boolean) | null;
  readonly isRepro: boolean;
}

/**
 * The commands an installed agent's own tool started, seen through the shell shim: nobody waits on them, so their ticks
 * are recorded as they fire (written into the output in mode `inband`), an exit by a signal the harness did not send is
 * the agent's tool's kill (recorded as observed), and their processes are looked at when the tool's result reaches the
 * model and when the CLI exits.
 */
export class ObservedCommands {
  readonly #commands = new Map<number, Observed>();
  readonly #trace: TraceWriter;
  readonly #mode: MonitorMode;
  readonly #renderTick: TickRenderer;

  constructor(deps: { readonly trace: TraceWriter; readonly mode: MonitorMode; readonly renderTick: TickRenderer }) {
    this.#trace = deps.trace;
    this.#mode = deps.mode;
    this.#renderTick = deps.renderTick;
  }

  add(
    entry: CommandEntry,
    process: ObservedProcess,
    inband: ((text: string) => boolean) | null,
    isRepro: boolean,
  ): void {
    this.#commands.set(entry.id, { entry, process, inband, isRepro });
  }

  has(commandId: number): boolean {
    return this.#commands.has(commandId);
  }

  /** `none`: what a monitor would have said, never shown. `inband`: written into the command's output, recorded as the exact bytes. */
  tick(commandId: number, tick: Tick): void {
    const observed = this.#commands.get(commandId);
    if (!observed) return;
    const text = `\n${this.#renderTick(tick)}\n`;
    const delivered = ticksInOutput(this.#mode) && observed.inband !== null && observed.inband(text);
    recordObservedTick(commandId, tick, text, delivered, this.#trace);
  }

  /**
   * A signal the harness did not send ended an observed command: the agent's own tool killed it. The record says what
   * was seen — the signal the shim reported, the processes alive at the last look before the exit, and those of them
   * still alive after it (a tool that ended only the leader) — since the harness saw no escalation of its own.
   */
  exited(entry: CommandEntry, exit: ExitInfo): void {
    const observed = this.#commands.get(entry.id);
    if (!observed || exit.signal === null || entry.killing) return;
    entry.killing = true;
    const survivors = observed.process.alive().map((process) => process.pid);
    const treeSize = Math.max(observed.process.lastTreeSize, survivors.length);
    this.#trace.write({
      type: 'kill',
      commandId: entry.id,
      by: 'agent',
      reason: `the agent's tool ended it (${exit.signal}, seen by the shell shim)`,
      mechanism: 'process-group+scan',
      treeSize,
      steps: [{ signal: exit.signal, atMs: 0, alive: treeSize }],
      escalatedToKill: exit.signal === 'SIGKILL',
      goneMs: survivors.length === 0 ? 0 : null,
      survivors,
    });
  }

  /** The repro's processes alive now, each observed repro command once: what `left_after_tool` and `left_after_exit` count. */
  lookAtRepros(moment: TreeMoment): void {
    for (const observed of this.#commands.values()) {
      if (!observed.isRepro) continue;
      this.#trace.write({
        type: 'command.tree',
        commandId: observed.entry.id,
        ...moment,
        alive: observed.process.alive(),
      });
    }
  }

  /** An observed command whose shim never reported and whose exit was given up on: ended here, its exit unknown. */
  giveUp(commandId: number): boolean {
    const observed = this.#commands.get(commandId);
    observed?.process.finish({ exitCode: null, signal: null, toGroup: false, inferred: true });
    return observed !== undefined;
  }
}
