import { HangbenchError } from '../types/errors.js';
import { baselineAgent } from './baseline.js';
import { nopAgent } from './nop.js';
import { oracleAgent } from './oracle.js';
import type { AgentFactory } from './protocol.js';

export interface AgentSettings {
  readonly hungTicks: number;
}

const AGENTS: Record<string, (settings: AgentSettings) => AgentFactory> = {
  oracle: () => oracleAgent,
  baseline: (settings) => baselineAgent(settings.hungTicks),
  nop: () => nopAgent,
};

export const AGENT_NAMES = Object.keys(AGENTS);

export function createAgentFactory(name: string, settings: AgentSettings): AgentFactory {
  const make = AGENTS[name];
  if (!make) throw new HangbenchError('USAGE', `unknown agent "${name}"; choose one of ${AGENT_NAMES.join(', ')}`);
  return make(settings);
}
