import type { TraceEvent } from '../types/events.js';
import { agentKillsOf, attemptStart, happenedBefore, primaryOnset } from './trace-query.js';

export interface InterruptScore {
  /** the agent killed the onset's command after onset, within budgets.interruptMs. null for controls. */
  readonly interrupted: boolean | null;
  /**
   * ms from the onset to the agent's first kill after it, in the CPU-available time its ticks came on: kill.t − onset.t
   * less what the load took from the command's tick clock in between (both records' cpuWaitMs; wall time where either
   * lacks it). Reported even when over budget; null when there was none.
   */
  readonly interrupt_latency: number | null;
}

/**
 * Kills by the harness, a budget, verify or the leak scan never count; neither does a kill before the onset. The
 * latency is on the clock the ticks came on, so a load that delays the ticks does not make the same decisions late.
 */
export function interrupted(events: readonly TraceEvent[]): InterruptScore {
  const start = attemptStart(events);
  if (start.kind !== 'hang') return { interrupted: null, interrupt_latency: null };
  const onset = primaryOnset(events);
  if (!onset) return { interrupted: false, interrupt_latency: null };
  const kill = agentKillsOf(events, onset.commandId).find((candidate) => happenedBefore(onset, candidate));
  if (!kill) return { interrupted: false, interrupt_latency: null };
  const lostMeanwhile =
    kill.cpuWaitMs !== undefined && onset.cpuWaitMs !== undefined ? Math.max(0, kill.cpuWaitMs - onset.cpuWaitMs) : 0;
  const latency = kill.t - onset.t - lostMeanwhile;
  return { interrupted: latency <= start.budgets.interruptMs, interrupt_latency: latency };
}
