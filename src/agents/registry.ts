import { HangbenchError } from '../types/errors.js';
import { baselineAgent } from './baseline.js';
import { execAgent } from './exec/agent.js';
import { nopAgent } from './nop.js';
import { openAIAgentFromSettings } from './openai/from-settings.js';
import { oracleAgent } from './oracle.js';
import type { AgentFactory } from './protocol.js';
import { replayAgent } from './replay/agent.js';

export interface AgentSettings {
  readonly hungTicks: number;
  /** openai: model name, endpoint (else OPENAI_BASE_URL), prompt folder, response cache folder. */
  readonly model?: string;
  readonly baseUrl?: string;
  readonly prompt?: string;
  readonly cache?: string;
  /** replay: the run folder whose traces are replayed. */
  readonly from?: string;
  /** exec: the shell command that starts the external agent. */
  readonly cmd?: string;
  readonly cwd?: string;
  readonly timeScale?: number;
}

const AGENTS: Record<string, (settings: AgentSettings) => AgentFactory> = {
  oracle: () => oracleAgent,
  baseline: (settings) => baselineAgent(settings.hungTicks),
  nop: () => nopAgent,
  openai: (settings) => openAIAgentFromSettings(settings),
  replay: (settings) => {
    if (!settings.from) throw new HangbenchError('USAGE', '--agent replay needs --from RUN_DIR (a results/<run> folder)');
    return replayAgent(settings.from, settings.cwd);
  },
  exec: (settings) => {
    if (!settings.cmd) throw new HangbenchError('USAGE', '--agent exec needs --cmd "COMMAND" (e.g. --cmd "node examples/exec-agent.mjs")');
    return execAgent({ command: settings.cmd, cwd: settings.cwd ?? process.cwd() });
  },
};

export const AGENT_NAMES = Object.keys(AGENTS);

export function createAgentFactory(name: string, settings: AgentSettings): AgentFactory {
  const make = AGENTS[name];
  if (!make) throw new HangbenchError('USAGE', `unknown agent "${name}"; choose one of ${AGENT_NAMES.join(', ')}`);
  return make(settings);
}
