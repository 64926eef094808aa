import type { AgentSpec } from '../types/variant.js';
import { baselineAgent } from './baseline.js';
import { cliAgent } from './cli/agent.js';
import { execAgent } from './exec/agent.js';
import { nopAgent } from './nop.js';
import { openAIAgentFromSettings } from './openai/from-settings.js';
import { oracleAgent } from './oracle.js';
import type { AgentFactory } from './protocol.js';
import { replayAgent } from './replay/agent.js';

/** What every agent factory may need beyond its own spec. */
export interface AgentEnvironment {
  readonly cwd: string;
  readonly timeScale: number;
  /** --agent-env: the only variables of the harness's environment an exec agent's own process gets. */
  readonly agentEnv?: readonly string[];
  /** --agent-allow-host: the hosts its egress proxy lets it reach (default: the host of OPENAI_BASE_URL). */
  readonly agentAllowHosts?: readonly string[];
}

/** The host of OPENAI_BASE_URL when it is set: where an exec agent's model lives. */
function defaultAllowHosts(): string[] {
  try {
    return process.env.OPENAI_BASE_URL ? [new URL(process.env.OPENAI_BASE_URL).hostname] : [];
  } catch {
    return [];
  }
}

/** One factory per variant, made once per run: an agent's settings are its AgentSpec and nothing else. */
export function createAgentFactory(spec: AgentSpec, environment: AgentEnvironment): AgentFactory {
  switch (spec.agent) {
    case 'oracle':
      return oracleAgent;
    case 'baseline':
      return baselineAgent(spec.hungTicks);
    case 'nop':
      return nopAgent;
    case 'openai':
      return openAIAgentFromSettings({ ...spec, cwd: environment.cwd, timeScale: environment.timeScale });
    case 'replay':
      return replayAgent(spec.from, environment.cwd);
    case 'exec':
      return execAgent({ command: spec.cmd, cwd: environment.cwd, agentEnv: environment.agentEnv ?? [], allowHosts: environment.agentAllowHosts ?? defaultAllowHosts() });
    case 'cli':
      return cliAgent(spec);
  }
}
