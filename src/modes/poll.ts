import { unscheduledMode } from './shapes.js';

/** Nothing pushed: `run` returns at once and the agent pulls a status when it asks, waiting with a timeout. */
export const poll = {
  ...unscheduledMode('poll', 'run returns at once; the agent polls the status and waits with a timeout'),
  pullsStatus: true,
};
