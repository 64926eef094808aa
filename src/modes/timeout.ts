import { z } from 'zod';
import { formatDuration } from '../types/duration.js';
import type { ModeDefinition, ModeSchedule } from './types.js';

const schema = z.strictObject({ mode: z.literal('timeout'), afterMs: z.number().positive() });
type TimeoutMode = z.infer<typeof schema>;

/** No ticks; the harness ends the command at --interval (Claude Code / SWE-agent's hard timeout, the "no monitor" baseline). */
export const timeout = {
  schema,
  help: 'no ticks; the harness kills the command at --interval (the "no monitor" baseline)',
  takes: ['interval'],
  make: ({ periodMs }) => ({ mode: 'timeout', afterMs: periodMs }),
  label: (mode) => `timeout-${formatDuration(mode.afterMs)}`,
  scale: (mode, by) => ({ mode: 'timeout', afterMs: mode.afterMs * by }),
  periodMs: (mode) => mode.afterMs,
  withPeriod: (mode, ms) => ({ ...mode, afterMs: ms }),
  schedule: (mode) => timeoutSchedule(mode.afterMs),
} satisfies ModeDefinition<TimeoutMode>;

/** One deadline at `afterMs`, which ends the command. */
function timeoutSchedule(afterMs: number): ModeSchedule {
  if (!(afterMs > 0)) throw new RangeError(`timeout needs a positive duration, got ${afterMs}`);
  let done = false;
  return {
    action: 'timeout',
    next() {
      return done ? null : afterMs;
    },
    served() {
      done = true;
    },
  };
}
