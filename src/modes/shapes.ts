import { z } from 'zod';
import { intervalSchedule } from './interval-schedule.js';
import type { ModeDefinition } from './types.js';

/**
 * A mode whose one setting is `everyMs`, the --interval, and whose schedule is a tick every `everyMs` (interval,
 * and the installed agents' none and inband, which differ only in what becomes of the tick).
 */
export function periodicMode<const Name extends string>(name: Name, help: string, label: (everyMs: number) => string) {
  const schema = z.strictObject({ mode: z.literal(name), everyMs: z.number().positive() });
  type Mode = z.infer<typeof schema>;
  const build = (everyMs: number) => ({ mode: name, everyMs }) as Mode;
  return {
    schema,
    help,
    takes: ['interval'],
    make: ({ periodMs }) => build(periodMs),
    label: (mode) => label(mode.everyMs),
    scale: (mode, by) => build(mode.everyMs * by),
    periodMs: (mode) => mode.everyMs,
    withPeriod: (_mode, ms) => build(ms),
    schedule: (mode) => intervalSchedule(mode.everyMs),
  } satisfies ModeDefinition<Mode>;
}

/** A mode with no settings and nothing pushed: the agent asks (poll) or parks until the exit (wait-pid). */
export function unscheduledMode<const Name extends string>(name: Name, help: string) {
  const schema = z.strictObject({ mode: z.literal(name) });
  type Mode = z.infer<typeof schema>;
  return {
    schema,
    help,
    takes: [],
    make: () => ({ mode: name }) as Mode,
    label: () => name,
    scale: (mode) => mode,
    periodMs: () => null,
    withPeriod: (mode) => mode,
    schedule: () => null,
  } satisfies ModeDefinition<Mode>;
}
