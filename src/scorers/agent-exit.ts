import type { TraceEvent } from '../types/events.js';
import type { AgentExit } from '../types/scores.js';
import { attemptStart, ofType } from './trace-query.js';
import { isInstalledAgent } from '../types/variant.js';

export interface AgentExitScore {
  /**
   * (installed agents) how the CLI's process ended: `exited` by itself, `ended` by the harness because it had not
   * exited the grace after its final answer, `stopped` with the attempt (a budget or a shutdown came first).
   */
  readonly agent_exit: AgentExit | null;
  /** ms from its last final answer to its exit or its end; null without a final answer. */
  readonly agent_exit_ms: number | null;
}

export function agentExit(events: readonly TraceEvent[]): AgentExitScore {
  const { agent } = attemptStart(events);
  if (!isInstalledAgent(agent)) return { agent_exit: null, agent_exit_ms: null };
  const exit = ofType(events, 'agent.exit')[0];
  if (exit) return { agent_exit: exit.ended ? 'ended' : 'exited', agent_exit_ms: exit.afterFinalMs };
  // Traces written before agent.exit existed say it in a note.
  const noted = ofType(events, 'agent.note').some((note) => / exited (with code|SIG)/.test(note.message));
  return { agent_exit: noted ? 'exited' : 'stopped', agent_exit_ms: null };
}
