import type { TraceEvent } from '../types/events.js';
import { attemptStart, ofType } from './trace-query.js';

export interface GateScore {
  /** every gate passed in the round of the accepted finish; false when no finish was accepted after passing gates. null: the case has no gates. */
  readonly gates_passed: boolean | null;
  /** rounds of gates run (one per finish the agent sent while gates applied). null: the case has no gates. */
  readonly gate_rounds: number | null;
}

/** Gates come from the case; a trace from before gates existed, or of a case without them, has none. */
function gateCount(events: readonly TraceEvent[]): number {
  const declared = attemptStart(events).gates ?? 0;
  const seen = ofType(events, 'gate.start').reduce((most, start) => Math.max(most, start.gate + 1), 0);
  return Math.max(declared, seen);
}

/** A round stops at its first failing gate, so it passed when all the case's gates have a passing result in it. */
export function gates(events: readonly TraceEvent[]): GateScore {
  const count = gateCount(events);
  if (count === 0) return { gates_passed: null, gate_rounds: null };
  const results = ofType(events, 'gate.result');
  const rounds = new Set(ofType(events, 'gate.start').map((start) => start.round));
  const last = Math.max(0, ...rounds);
  const passedInLast = new Set(
    results.filter((result) => result.round === last && result.passed).map((result) => result.gate),
  );
  return { gates_passed: last > 0 && passedInLast.size === count, gate_rounds: rounds.size };
}
