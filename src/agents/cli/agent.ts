import { HangbenchError } from '../../types/errors.js';
import type { AgentFactory } from '../protocol.js';
import type { InstalledAgent } from './installed.js';
import { loadAdapter, resolveSettings } from './adapter.js';
import { installAdapter } from './install.js';

/** An installed agent CLI of a variant, ready to run in an attempt's sandbox (src/attempt/installed-agent.ts runs it). */
export type { InstalledAgent } from './installed.js';

export interface CliSettings {
  readonly adapter: string;
  readonly settings: Readonly<Record<string, string>>;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly cmd?: string;
}

/**
 * `--agent cli:<name>`: not an observation-in, action-out agent — the CLI runs on its own inside the sandbox and the
 * attempt observes it — so `create` is never called; the attempt takes `installed` instead.
 */
export function cliAgent(spec: CliSettings, env: NodeJS.ProcessEnv = process.env): AgentFactory & { readonly installed: InstalledAgent } {
  const model = spec.model ?? env.OPENAI_MODEL;
  if (!model) throw new HangbenchError('USAGE', `--agent cli:${spec.adapter} needs --model NAME (the model the proxy asks the endpoint for)`);
  let prepared: ReturnType<InstalledAgent['prepare']> | null = null;
  const installed: InstalledAgent = {
    adapterName: spec.adapter,
    model,
    upstream: spec.baseUrl ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    apiKey: env.OPENAI_API_KEY,
    ...(spec.cmd === undefined ? {} : { cmd: spec.cmd }),
    prepare: () =>
      (prepared ??= (async () => {
        const adapter = await loadAdapter(spec.adapter);
        const settings = resolveSettings(adapter, spec.settings);
        return { adapter, settings, installed: await installAdapter(adapter) };
      })()),
  };
  return {
    name: `cli:${spec.adapter}`,
    installed,
    create: () => {
      throw new HangbenchError('AGENT', `cli:${spec.adapter} runs by itself in the sandbox; the attempt runs it through its installed agent, not create()`);
    },
  };
}
