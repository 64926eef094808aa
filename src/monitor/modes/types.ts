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
