import type { TraceEvent } from '../types/events.js';
import { agentKillsOf, attemptStart, happenedBefore, primaryOnset } from './trace-query.js';

export interface InterruptScore {
  /** the agent killed the onset's command after onset, within budgets.interruptMs. null for controls. */
  readonly interrupted: boolean | null;
  /** kill.t − onset.t of the agent's first kill after onset, reported even when over budget; null when there was none. */
  readonly interrupt_latency: number | null;
}

/** Kills by the harness, a budget, verify or the leak scan never count; neither does a kill before the onset. */
export function interrupted(events: readonly TraceEvent[]): InterruptScore {
  const start = attemptStart(events);
  if (start.kind !== 'hang') return { interrupted: null, interrupt_latency: null };
  const onset = primaryOnset(events);
  if (!onset) return { interrupted: false, interrupt_latency: null };
  const kill = agentKillsOf(events, onset.commandId).find((candidate) => happenedBefore(onset, candidate));
  if (!kill) return { interrupted: false, interrupt_latency: null };
  const latency = kill.t - onset.t;
  return { interrupted: latency <= start.budgets.interruptMs, interrupt_latency: latency };
}
