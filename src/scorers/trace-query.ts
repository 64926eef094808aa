import type { EventOf, TraceEvent, TraceEventType } from '../types/events.js';
import { HangbenchError } from '../types/errors.js';

/** Small queries over a trace that several scorers share. */

export type AttemptStart = EventOf<'attempt.start'>;
export type AttemptEnd = EventOf<'attempt.end'>;

export function ofType<K extends TraceEventType>(events: readonly TraceEvent[], type: K): EventOf<K>[] {
  return events.filter((event): event is EventOf<K> => event.type === type);
}

export function firstOfType<K extends TraceEventType>(events: readonly TraceEvent[], type: K): EventOf<K> | undefined {
  return events.find((event): event is EventOf<K> => event.type === type);
}

export function attemptStart(events: readonly TraceEvent[]): AttemptStart {
  const first = events[0];
  if (first?.type !== 'attempt.start') {
    throw new HangbenchError(
      'TRACE_INVALID',
      `a trace must begin with an attempt.start event, got ${first ? first.type : 'an empty trace'}`,
    );
  }
  return first;
}

/** The attempt.end event, or undefined when the trace was cut short (the harness died mid-attempt). */
export function attemptEnd(events: readonly TraceEvent[]): AttemptEnd | undefined {
  return events.findLast((event): event is AttemptEnd => event.type === 'attempt.end');
}

/** `a` happened before `b`: earlier `t`, or the same `t` and written earlier. */
export function happenedBefore(a: TraceEvent, b: TraceEvent): boolean {
  return a.t < b.t || (a.t === b.t && a.seq < b.seq);
}

/** Every `command.start` in a trace is a command the agent started (verify runs are not commands). */
function agentCommandIds(events: readonly TraceEvent[]): Set<number> {
  return new Set(ofType(events, 'command.start').map((start) => start.commandId));
}

/**
 * The onset the hang scores are about: the first onset in a command the agent started.
 * `reproduced` asks whether it came before the first edit; `interrupted` whether the agent killed that command.
 */
export function primaryOnset(events: readonly TraceEvent[]): EventOf<'onset'> | undefined {
  const started = agentCommandIds(events);
  return ofType(events, 'onset').find((onset) => started.has(onset.commandId));
}

export function agentKillsOf(events: readonly TraceEvent[], commandId: number): EventOf<'kill'>[] {
  return ofType(events, 'kill').filter((kill) => kill.by === 'agent' && kill.commandId === commandId);
}
