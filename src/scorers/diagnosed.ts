import type { TraceEvent } from '../types/events.js';
import { matchesCulprit } from '../types/culprit.js';
import { looksHung } from '../types/process.js';
import { attemptStart, happenedBefore, ofType, primaryOnset } from './trace-query.js';

/**
 * (hang cases with `hang.culprit`) The first tick classified as hung at or after the onset, in the command that showed
 * it, names the culprit: the process its reason names as the cause matches the case's matcher. A tick before the onset
 * is not about the hang (a slow start looks idle too). null elsewhere; false when no tick after the onset looked hung.
 */
export function diagnosed(events: readonly TraceEvent[]): boolean | null {
  const start = attemptStart(events);
  if (start.kind !== 'hang' || !start.culprit) return null;
  const onset = primaryOnset(events);
  if (!onset) return false;
  const ticks = ofType(events, 'tick').filter(
    (tick) => tick.commandId === onset.commandId && !happenedBefore(tick, onset),
  );
  const first = ticks.find((tick) => looksHung(tick.classification));
  if (!first || first.culprit == null) return false;
  const named = first.snapshot.processes.find((process) => process.pid === first.culprit);
  return named !== undefined && matchesCulprit(start.culprit, named);
}
