import type { EventOf, TraceEvent } from '../types/events.js';
import { attemptStart, happenedBefore, ofType } from './trace-query.js';

export interface HintScore {
  /** a hint reached the agent. null: the case has no hints. */
  readonly hint_given: boolean | null;
  /** ms from the first hint to the agent's next kill, input, edit or write; null when no hint or no such action followed. */
  readonly hint_to_action: number | null;
}

/** The actions that act on the hint: interrupting, answering the program, or changing the code. */
const ACTING: ReadonlySet<string> = new Set(['kill', 'input', 'edit', 'write']);

export function hints(events: readonly TraceEvent[]): HintScore {
  const declared = attemptStart(events).hints ?? 0;
  const given = ofType(events, 'hint');
  if (declared === 0 && given.length === 0) return { hint_given: null, hint_to_action: null };
  const [first] = given;
  if (!first) return { hint_given: false, hint_to_action: null };
  const action = ofType(events, 'action').find(
    (event: EventOf<'action'>) => ACTING.has(event.action.type) && happenedBefore(first, event),
  );
  return { hint_given: true, hint_to_action: action ? action.t - first.t : null };
}
