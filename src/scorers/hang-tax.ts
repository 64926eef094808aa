import type { TraceEvent } from '../types/events.js';
import { attemptEnd, happenedBefore, ofType, primaryOnset } from './trace-query.js';

export interface HangTaxScore {
  /** wall ms from the hang's onset to its end: the exit of the command that hung, else the attempt's end. null: no onset. */
  readonly hang_tax_ms: number | null;
  /** model tokens of the responses that came in between (the agent's own calls, or an installed CLI's through the proxy). */
  readonly hang_tax_tokens: number | null;
}

/** What a hang cost while it lasted, for every agent: time, and tokens spent on it. */
export function hangTax(events: readonly TraceEvent[]): HangTaxScore {
  const onset = primaryOnset(events);
  if (!onset) return { hang_tax_ms: null, hang_tax_tokens: null };
  const end =
    ofType(events, 'command.exit').find((exit) => exit.commandId === onset.commandId && happenedBefore(onset, exit)) ??
    attemptEnd(events) ??
    events.at(-1)!;
  const within = (event: TraceEvent): boolean => !happenedBefore(event, onset) && !happenedBefore(end, event);
  const responses = [...ofType(events, 'agent.response'), ...ofType(events, 'model.response')].filter(within);
  return {
    hang_tax_ms: Math.round(Math.max(0, end.t - onset.t) * 10) / 10,
    hang_tax_tokens: responses.reduce((sum, { usage }) => sum + usage.promptTokens + usage.completionTokens, 0),
  };
}
