import type { ModeSchedule } from './types.js';

/**
 * A tick every `everyMs`, at start + n·every: computed from the start, never chained, so lateness does not
 * accumulate; deadlines missed while the event loop was busy are skipped, so a late tick is never followed by a burst.
 */
export function intervalSchedule(everyMs: number): ModeSchedule {
  if (!(everyMs > 0)) throw new RangeError(`tick interval must be a positive number of ms, got ${everyMs}`);
  let servedIndex = 0;
  return {
    action: 'tick',
    next(afterMs) {
      const index = Math.max(servedIndex + 1, Math.floor(afterMs / everyMs) + 1);
      return index * everyMs;
    },
    served(atMs) {
      servedIndex = Math.max(servedIndex, Math.round(atMs / everyMs));
    },
  };
}
