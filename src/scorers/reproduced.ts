import type { TraceEvent } from '../types/events.js';
import { attemptStart, firstOfType, happenedBefore, primaryOnset } from './trace-query.js';

/** hang: the onset happened in a command the agent started, before its first edit. null for controls. */
export function reproduced(events: readonly TraceEvent[]): boolean | null {
  if (attemptStart(events).kind !== 'hang') return null;
  const onset = primaryOnset(events);
  if (!onset) return false;
  const firstEdit = firstOfType(events, 'file.write');
  return firstEdit === undefined || happenedBefore(onset, firstEdit);
}
