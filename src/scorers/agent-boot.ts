import type { TraceEvent } from '../types/events.js';
import { ofType } from './trace-query.js';

export interface AgentBootScore {
  /** (installed agents) ms from the CLI's start to its first model request, on the wall and on a core; null: none came. */
  readonly agent_boot_ms: number | null;
  readonly agent_boot_cpu_ms: number | null;
}

export function agentBoot(events: readonly TraceEvent[]): AgentBootScore {
  const boot = ofType(events, 'agent.boot')[0];
  return boot
    ? { agent_boot_ms: boot.wallMs, agent_boot_cpu_ms: boot.cpuMs }
    : { agent_boot_ms: null, agent_boot_cpu_ms: null };
}
