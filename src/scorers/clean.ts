import type { TraceEvent } from '../types/events.js';
import { attemptEnd, firstOfType } from './trace-query.js';

/** Nothing of the attempt was left running: attempt.end says clean, no leak was recorded and no kill left a survivor. */
export function clean(events: readonly TraceEvent[]): boolean {
  return attemptEnd(events)?.clean === true && firstOfType(events, 'leak') === undefined && !killLeftSurvivors(events);
}

/** Whether a kill's look after it found a process of the killed tree still alive. */
export function killLeftSurvivors(events: readonly TraceEvent[]): boolean {
  return events.some((event) => event.type === 'kill' && event.survivors.length > 0);
}
