import type { TraceEvent } from '../types/events.js';
import { attemptEnd, ofType } from './trace-query.js';

/** Tokens of the attempt: attempt.end's count, or prompt + completion of every response when the trace was cut short. */
export function traceTokens(events: readonly TraceEvent[]): number {
  const end = attemptEnd(events);
  if (end) return end.tokens;
  return ofType(events, 'agent.response').reduce(
    (sum, { usage }) => sum + usage.promptTokens + usage.completionTokens,
    0,
  );
}
