import { periodicMode } from './shapes.js';

/**
 * Installed agents, observe only: ticks computed every --interval and recorded as not delivered. The period changes
 * nothing the agent sees, so the label leaves it out.
 */
export const none = periodicMode(
  'none',
  'installed agents: ticks computed every interval, recorded, never shown',
  () => 'none',
);
