import type { Hint } from '../types/case.js';
import { formatDuration } from '../types/duration.js';

/** A hint whose trigger came: delivered with the observation that is about to reach the agent. */
export interface DueHint {
  readonly hint: number;
  readonly trigger: string;
  readonly text: string;
  /** ms since attempt start when the trigger came due. */
  readonly dueMs: number;
}

/**
 * When the case's hints come due: `after` from the attempt's start, `ticks` once that many ticks reached the agent
 * (the tick that makes the count carries it), `onset` that long after the ground-truth onset. Durations are scaled.
 * Each hint is taken once; a trigger that never comes (no onset, too few ticks) never delivers.
 */
export class HintSchedule {
  private readonly hints: readonly Hint[];
  private readonly scale: number;
  private readonly given = new Set<number>();
  private readonly tickTimes: number[] = [];
  private onsetAt: number | null = null;

  constructor(hints: readonly Hint[], timeScale: number) {
    this.hints = hints;
    this.scale = timeScale;
  }

  /** a tick observation is about to reach the agent at `atMs`. */
  noteTick(atMs: number): void {
    this.tickTimes.push(atMs);
  }

  /** the first ground-truth onset, at `atMs` since attempt start; later ones are ignored. */
  noteOnset(atMs: number): void {
    this.onsetAt ??= atMs;
  }

  /** Hints due by `nowMs` and not yet given, in the case's order. */
  take(nowMs: number): DueHint[] {
    const due: DueHint[] = [];
    for (const [index, hint] of this.hints.entries()) {
      if (this.given.has(index)) continue;
      const dueMs = this.dueAt(hint);
      if (dueMs === null || dueMs > nowMs) continue;
      this.given.add(index);
      due.push({ hint: index, trigger: describeTrigger(hint), text: hint.text, dueMs });
    }
    return due;
  }

  private dueAt(hint: Hint): number | null {
    if ('after' in hint) return hint.after * this.scale;
    if ('ticks' in hint) return this.tickTimes[hint.ticks - 1] ?? null;
    return this.onsetAt === null ? null : this.onsetAt + hint.onset * this.scale;
  }
}

function describeTrigger(hint: Hint): string {
  if ('after' in hint) return `after ${formatDuration(hint.after)}`;
  if ('ticks' in hint) return `${hint.ticks} tick${hint.ticks === 1 ? '' : 's'}`;
  return `${formatDuration(hint.onset)} after onset`;
}
