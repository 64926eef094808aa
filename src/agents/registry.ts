import type { AgentSpec } from '../types/variant.js';
import { baselineAgent } from './baseline.js';
import { execAgent } from './exec/agent.js';
import { moduleAgent } from './module/agent.js';
import { nopAgent } from './nop.js';
import { openAIAgentFromSettings } from './openai/from-settings.js';
import { oracleAgent } from './oracle.js';
import type { AgentFactory } from './protocol.js';
import { replayAgent } from './replay/agent.js';

/** What every agent factory may need beyond its own spec. */
export interface AgentEnvironment {
  readonly cwd: string;
  readonly timeScale: number;
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
      return execAgent({ command: spec.cmd, cwd: environment.cwd });
    case 'module':
      return moduleAgent(spec.path, environment.cwd);
  }
}
