import { z } from 'zod';
import { formatDuration } from '../../types/duration.js';
import type { ModeDefinition, ModeSchedule } from './types.js';

const schema = z.strictObject({ mode: z.literal('interval'), everyMs: z.number().positive() });
type IntervalMode = z.infer<typeof schema>;

/** A tick every --interval while the command runs. */
export const interval = {
  schema,
  help: 'a tick every --interval while the command runs',
  takes: ['interval'],
  make: ({ periodMs }) => ({ mode: 'interval', everyMs: periodMs }),
  label: (mode) => `interval-${formatDuration(mode.everyMs)}`,
  scale: (mode, by) => ({ mode: 'interval', everyMs: mode.everyMs * by }),
  periodMs: (mode) => mode.everyMs,
  withPeriod: (mode, ms) => ({ ...mode, everyMs: ms }),
  schedule: (mode) => intervalSchedule(mode.everyMs),
} satisfies ModeDefinition<IntervalMode>;

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
