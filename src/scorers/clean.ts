import type { TraceEvent } from '../types/events.js';
import { attemptEnd, firstOfType } from './trace-query.js';

/** Nothing of the attempt was left running: attempt.end says clean and no leak was recorded. */
export function clean(events: readonly TraceEvent[]): boolean {
  return attemptEnd(events)?.clean === true && firstOfType(events, 'leak') === undefined;
}
