import { z } from 'zod';
import type { ModeDefinition } from './types.js';

const schema = z.strictObject({ mode: z.literal('poll') });
type PollMode = z.infer<typeof schema>;

/** Nothing pushed: `run` returns at once and the agent pulls a status when it asks, waiting with a timeout. */
export const poll = {
  schema,
  help: 'run returns at once; the agent polls the status and waits with a timeout',
  takes: [],
  make: () => ({ mode: 'poll' }),
  label: () => 'poll',
  scale: (mode) => mode,
  periodMs: () => null,
  withPeriod: (mode) => mode,
  schedule: () => null,
} satisfies ModeDefinition<PollMode>;
