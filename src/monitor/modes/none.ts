import { z } from 'zod';
import { intervalSchedule } from './interval.js';
import type { ModeDefinition } from './types.js';

const schema = z.strictObject({ mode: z.literal('none'), everyMs: z.number().positive() });
type NoneMode = z.infer<typeof schema>;

/** Installed agents, observe only: ticks computed every --interval and recorded as not delivered. */
export const none = {
  schema,
  help: 'installed agents: ticks computed every interval, recorded, never shown',
  takes: ['interval'],
  make: ({ periodMs }) => ({ mode: 'none', everyMs: periodMs }),
  // the period changes nothing the agent sees, so the name leaves it out
  label: () => 'none',
  scale: (mode, by) => ({ mode: 'none', everyMs: mode.everyMs * by }),
  periodMs: (mode) => mode.everyMs,
  withPeriod: (mode, ms) => ({ ...mode, everyMs: ms }),
  schedule: (mode) => intervalSchedule(mode.everyMs),
} satisfies ModeDefinition<NoneMode>;
