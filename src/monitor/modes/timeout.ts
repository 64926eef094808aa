import type { ModeSchedule } from './types.js';

/** No ticks at all; at `afterMs` the harness ends the command and tells the agent (Claude Code / SWE-agent's hard timeout). */
export function timeoutSchedule(afterMs: number): ModeSchedule {
  if (!(afterMs > 0)) throw new RangeError(`timeout needs a positive duration, got ${afterMs}`);
  let done = false;
  return {
    action: 'timeout',
    next() {
      return done ? null : afterMs;
    },
    served() {
      done = true;
    },
  };
}
