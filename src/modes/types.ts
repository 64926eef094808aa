import type { z } from 'zod';

/**
 * The schedule of one monitor mode. Times are ms since the command started, on the monotonic clock.
 * The monitor arms one timer for `next(now)`; when it fires it asks `next(at - ε)` again (output may have moved a
 * no-output deadline) and acts only on a deadline that has come, then reports it `served`.
 */
export interface ModeSchedule {
  /** what a deadline means: a tick for the agent, or the end of the command (the `timeout` mode's harness kill). */
  readonly action: 'tick' | 'timeout';
  /** the first deadline after `afterMs` not yet served, given when the last output came (null: none yet); null: no more. */
  next(afterMs: number, lastOutputMs: number | null): number | null;
  served(atMs: number): void;
}

/** The fields of a config file's variant that set a mode (docs/variants.md); `interval` is the CLI's --interval. */
export const MODE_FIELDS = ['interval', 'every', 'factor', 'max'] as const;
export type ModeField = (typeof MODE_FIELDS)[number];

/** What a mode is built from: the period (--interval, a config's `interval`) and the config's other mode fields. */
export interface ModeSettings {
  readonly periodMs: number;
  readonly everyMs?: number;
  readonly factor?: number;
  readonly maxMs?: number;
}

/**
 * Everything about one monitor mode, in its file under monitor/modes/: adding a mode is adding a file and a line in
 * modes/index.ts. Durations in the spec are unscaled ms; `scale` multiplies them by --time-scale.
 */
export interface ModeDefinition<M extends { readonly mode: string }> {
  /** the spec as a variant holds it (strict: a field of another mode is an error). */
  readonly schema: z.ZodType<M>;
  /** one line for `--help`. */
  readonly help: string;
  /** the config fields it takes; the others are refused with "applies to mode …". */
  readonly takes: readonly ModeField[];
  make(settings: ModeSettings): M;
  /** the mode's part of a variant name (`no-output-5s`): readable, stable, safe in paths. */
  label(mode: M): string;
  scale(mode: M, by: number): M;
  /** the main period (the value --interval sets), or null for a mode that has none. */
  periodMs(mode: M): number | null;
  /** the same mode with another main period (a sweep's lines are the variants equal but for it). */
  withPeriod(mode: M, ms: number): M;
  /** what the monitor pushes, or null for a mode that pushes nothing. */
  schedule(mode: M): ModeSchedule | null;
  /**
   * the agent pulls each status (`poll`): every command runs in the background, `run` returns at once, and an agent
   * that waits gives a timeout. Absent: false.
   */
  readonly pullsStatus?: boolean;
  /** each tick is written into the running command's own output (installed agents' `inband`). Absent: false. */
  readonly ticksInOutput?: boolean;
}
