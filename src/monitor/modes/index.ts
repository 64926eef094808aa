import type { MonitorMode } from '../../types/variant.js';
import { backoffSchedule } from './backoff.js';
import { intervalSchedule } from './interval.js';
import { noOutputSchedule } from './no-output.js';
import { timeoutSchedule } from './timeout.js';
import type { ModeSchedule } from './types.js';

export type { ModeSchedule } from './types.js';

/**
 * The schedule a mode pushes to the agent, or null for the modes that push nothing: `poll` (the agent pulls a status
 * when it asks) and `wait-pid` (the agent parks until the command exits).
 */
export function scheduleFor(mode: MonitorMode): ModeSchedule | null {
  switch (mode.mode) {
    case 'interval':
      return intervalSchedule(mode.everyMs);
    case 'no-output':
      return noOutputSchedule(mode.afterMs, mode.everyMs);
    case 'backoff':
      return backoffSchedule(mode.firstMs, mode.factor, mode.maxMs);
    case 'timeout':
      return timeoutSchedule(mode.afterMs);
    case 'none':
    case 'inband':
      return intervalSchedule(mode.everyMs);
    case 'poll':
    case 'wait-pid':
      return null;
  }
}
