import type { Tick, TickOutput } from '../../types/process.js';

const MAX_HELD_CHARS = 4096;

/**
 * The OpenHands style: stay silent while the command is producing output, speak only after
 * `silenceMs` without any, then again only after another `silenceMs`. Output of the ticks it
 * did not speak is held and shown with the next one it does. With silenceMs null every tick speaks.
 */
export class QuietGate {
  private readonly silenceMs: number | null;
  private commandId = -1;
  private lastSpokenMs = 0;
  private held: TickOutput | null = null;

  constructor(silenceMs: number | null) {
    this.silenceMs = silenceMs;
  }

  /** The output to show when this tick should reach the model; null when the agent should just wait. */
  offer(tick: Tick): TickOutput | null {
    if (tick.commandId !== this.commandId) {
      this.commandId = tick.commandId;
      this.lastSpokenMs = 0;
      this.held = null;
    }
    const output = this.held ? merge(this.held, tick.output) : tick.output;
    if (this.silenceMs !== null && (tick.sinceOutputMs < this.silenceMs || tick.elapsedMs - this.lastSpokenMs < this.silenceMs)) {
      this.held = output;
      return null;
    }
    this.held = null;
    this.lastSpokenMs = tick.elapsedMs;
    return output;
  }
}

export function merge(first: TickOutput, second: TickOutput): TickOutput {
  if (second.bytes === 0) return first.bytes === 0 ? second : first;
  if (first.bytes === 0) return second;
  const text = first.text + second.text;
  const cut = Math.max(0, text.length - MAX_HELD_CHARS);
  return {
    text: cut > 0 ? `[… ${cut} characters cut]\n${text.slice(cut)}` : text,
    bytes: first.bytes + second.bytes,
    cutBytes: first.cutBytes + second.cutBytes + cut,
    foldedLines: first.foldedLines + second.foldedLines,
    partialLine: second.partialLine,
  };
}
