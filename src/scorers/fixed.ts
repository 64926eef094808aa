import type { TraceEvent } from '../types/events.js';
import { ofType } from './trace-query.js';

/** Every verify step passed, and at least one ran (an attempt that never reached verify is not fixed). */
export function fixed(events: readonly TraceEvent[]): boolean {
  const steps = ofType(events, 'verify');
  return steps.length > 0 && steps.every((step) => step.passed);
}
