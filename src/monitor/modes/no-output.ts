import type { ModeSchedule } from './types.js';

/**
 * The OpenHands style: no tick while output flows; the first once `afterMs` passed without any, then one every
 * `everyMs` (default: afterMs) for as long as it stays silent. New output starts the wait over.
 */
export function noOutputSchedule(afterMs: number, everyMs: number = afterMs): ModeSchedule {
  if (!(afterMs > 0) || !(everyMs > 0)) throw new RangeError(`no-output needs positive durations, got after ${afterMs} every ${everyMs}`);
  let lastServed: number | null = null;
  return {
    action: 'tick',
    next(_afterMs, lastOutputMs) {
      const silentSince = lastOutputMs ?? 0;
      return lastServed === null || lastServed < silentSince ? silentSince + afterMs : lastServed + everyMs;
    },
    served(atMs) {
      lastServed = atMs;
    },
  };
}
