import type { TraceEvent } from '../types/events.js';
import type { AttemptScores } from '../types/scores.js';
import { attemptStart, ofType } from './trace-query.js';
import { isInstalledAgent } from '../types/variant.js';

export type AgentExitScore = Pick<AttemptScores['scores'], 'agent_exit' | 'agent_exit_ms'>;

export function agentExit(events: readonly TraceEvent[]): AgentExitScore {
  const { agent } = attemptStart(events);
  if (!isInstalledAgent(agent)) return { agent_exit: null, agent_exit_ms: null };
  const exit = ofType(events, 'agent.exit')[0];
  if (exit) return { agent_exit: exit.ended ? 'ended' : 'exited', agent_exit_ms: exit.afterFinalMs };
  // Traces written before agent.exit existed say it in a note.
  const noted = ofType(events, 'agent.note').some((note) => / exited (with code|SIG)/.test(note.message));
  return { agent_exit: noted ? 'exited' : 'stopped', agent_exit_ms: null };
}
