import type { TraceEvent } from '../types/events.js';
import { attemptStart, ofType } from './trace-query.js';

/** Every verify step passed, and at least one ran (an attempt that never reached verify passed nothing). */
function verifyPassed(events: readonly TraceEvent[]): boolean {
  const steps = ofType(events, 'verify');
  return steps.length > 0 && steps.every((step) => step.passed);
}

/** hang: the hidden checks pass after the agent, so it fixed the cause. null for controls, which have nothing to fix. */
export function fixed(events: readonly TraceEvent[]): boolean | null {
  return attemptStart(events).kind === 'hang' ? verifyPassed(events) : null;
}

/** control: the hidden checks still pass after the agent, so it broke nothing. null for hangs. */
export function intact(events: readonly TraceEvent[]): boolean | null {
  return attemptStart(events).kind === 'control' ? verifyPassed(events) : null;
}
