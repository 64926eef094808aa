import { unscheduledMode } from './shapes.js';

/** Nothing pushed: the agent parks until the command exits, bounded by the wall budget. */
export const waitPid = unscheduledMode(
  'wait-pid',
  'no ticks; the agent waits until the command exits (bounded by the wall budget)',
);
