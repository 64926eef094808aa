import type { TraceEvent } from '../types/events.js';
import { matchesCulprit } from '../types/culprit.js';
import { looksHung } from '../types/process.js';
import { attemptStart, ofType, primaryOnset } from './trace-query.js';

/**
 * (hang cases with `hang.culprit`) The first tick classified as hung — in the command that showed the onset, else in
 * any — names the culprit: the process its reason names as the cause matches the case's matcher. null elsewhere; false
 * when no tick ever looked hung.
 */
export function diagnosed(events: readonly TraceEvent[]): boolean | null {
  const start = attemptStart(events);
  if (start.kind !== 'hang' || !start.culprit) return null;
  const onset = primaryOnset(events);
  const ticks = ofType(events, 'tick').filter((tick) => onset === undefined || tick.commandId === onset.commandId);
  const first = ticks.find((tick) => looksHung(tick.classification));
  if (!first || first.culprit == null) return false;
  const named = first.snapshot.processes.find((process) => process.pid === first.culprit);
  return named !== undefined && matchesCulprit(start.culprit, named);
}
