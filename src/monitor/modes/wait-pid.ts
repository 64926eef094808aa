import { z } from 'zod';
import type { ModeDefinition } from './types.js';

const schema = z.strictObject({ mode: z.literal('wait-pid') });
type WaitPidMode = z.infer<typeof schema>;

/** Nothing pushed: the agent parks until the command exits, bounded by the wall budget. */
export const waitPid = {
  schema,
  help: 'no ticks; the agent waits until the command exits (bounded by the wall budget)',
  takes: [],
  make: () => ({ mode: 'wait-pid' }),
  label: () => 'wait-pid',
  scale: (mode) => mode,
  periodMs: () => null,
  withPeriod: (mode) => mode,
  schedule: () => null,
} satisfies ModeDefinition<WaitPidMode>;
