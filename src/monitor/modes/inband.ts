import { z } from 'zod';
import { formatDuration } from '../../types/duration.js';
import { intervalSchedule } from './interval.js';
import type { ModeDefinition } from './types.js';

const schema = z.strictObject({ mode: z.literal('inband'), everyMs: z.number().positive() });
type InbandMode = z.infer<typeof schema>;

/** Installed agents: the shell shim writes each rendered tick into the running command's output stream. */
export const inband = {
  schema,
  help: "installed agents: each tick written into the running command's output",
  takes: ['interval'],
  make: ({ periodMs }) => ({ mode: 'inband', everyMs: periodMs }),
  label: (mode) => `inband-${formatDuration(mode.everyMs)}`,
  scale: (mode, by) => ({ mode: 'inband', everyMs: mode.everyMs * by }),
  periodMs: (mode) => mode.everyMs,
  withPeriod: (mode, ms) => ({ ...mode, everyMs: ms }),
  schedule: (mode) => intervalSchedule(mode.everyMs),
} satisfies ModeDefinition<InbandMode>;
