import { z } from 'zod';
import { formatDuration } from '../types/duration.js';
import type { ModeDefinition, ModeSchedule } from './types.js';

const schema = z.strictObject({
  mode: z.literal('no-output'),
  afterMs: z.number().positive(),
  everyMs: z.number().positive().optional(),
});
type NoOutputMode = z.infer<typeof schema>;

/** The OpenHands style: ticks only while the command is silent. */
export const noOutput = {
  schema,
  help: 'a tick once --interval passed without output, then every --interval while silent',
  takes: ['interval', 'every'],
  make: ({ periodMs, everyMs }) => ({
    mode: 'no-output',
    afterMs: periodMs,
    ...(everyMs === undefined ? {} : { everyMs }),
  }),
  label: ({ afterMs, everyMs }) =>
    everyMs === undefined || everyMs === afterMs
      ? `no-output-${formatDuration(afterMs)}`
      : `no-output-${formatDuration(afterMs)}-every-${formatDuration(everyMs)}`,
  scale: ({ afterMs, everyMs }, by) => ({
    mode: 'no-output',
    afterMs: afterMs * by,
    ...(everyMs === undefined ? {} : { everyMs: everyMs * by }),
  }),
  periodMs: (mode) => mode.afterMs,
  // only `after` is the period: a no-output mode keeps its own `every`
  withPeriod: (mode, ms) => ({ ...mode, afterMs: ms }),
  schedule: (mode) => noOutputSchedule(mode.afterMs, mode.everyMs),
} satisfies ModeDefinition<NoOutputMode>;

/**
 * No tick while output flows; the first once `afterMs` passed without any, then one every `everyMs` (default:
 * afterMs) for as long as it stays silent. New output starts the wait over.
 */
function noOutputSchedule(afterMs: number, everyMs: number = afterMs): ModeSchedule {
  if (!(afterMs > 0) || !(everyMs > 0))
    throw new RangeError(`no-output needs positive durations, got after ${afterMs} every ${everyMs}`);
  let lastServed: number | null = null;
  return {
    action: 'tick',
    next(_afterMs, lastOutputMs) {
      const silentSince = lastOutputMs ?? 0;
      return lastServed === null || lastServed < silentSince ? silentSince + afterMs : lastServed + everyMs;
    },
    served(atMs) {
      lastServed = atMs;
    },
  };
}
