import type { TraceEvent } from '../types/events.js';
import type { AttemptScores } from '../types/scores.js';
import { ofType } from './trace-query.js';

export type AgentBootScore = Pick<AttemptScores['scores'], 'agent_boot_ms' | 'agent_boot_cpu_ms'>;

export function agentBoot(events: readonly TraceEvent[]): AgentBootScore {
  const boot = ofType(events, 'agent.boot')[0];
  return boot
    ? { agent_boot_ms: boot.wallMs, agent_boot_cpu_ms: boot.cpuMs }
    : { agent_boot_ms: null, agent_boot_cpu_ms: null };
}
