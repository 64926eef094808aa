import type { TraceEvent } from '../types/events.js';
import { attemptEnd, attemptStart, firstOfType } from './trace-query.js';
import { traceTokens } from './tokens.js';

/**
 * Tokens ≤ budgets.tokens, agent wall time ≤ budgets.wallMs, and no limit was hit; an ERROR (the harness broke) passes
 * nothing. The wall time counted is the agent phase's less the time its processes waited for a CPU (attempt.end's
 * cpuWaitMs), as the wall budget itself counts it.
 */
export function withinBudget(events: readonly TraceEvent[]): boolean {
  const { budgets } = attemptStart(events);
  const end = attemptEnd(events);
  if (!end || end.outcome === 'error') return false;
  return (
    traceTokens(events) <= budgets.tokens &&
    end.agentWallMs - (end.cpuWaitMs ?? 0) <= budgets.wallMs &&
    firstOfType(events, 'limit') === undefined
  );
}
