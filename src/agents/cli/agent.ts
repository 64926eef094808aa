import { HangbenchError } from '../../types/errors.js';
import type { InstalledAgent, InstalledAgentFactory } from './installed.js';
import { loadAdapter, resolveSettings, resolveTimeouts } from './adapter.js';
import { installAdapter } from './install.js';

/** An installed agent CLI of a variant, ready to run in an attempt's sandbox (src/attempt/installed-agent.ts runs it). */
export type { InstalledAgent } from './installed.js';

/** `--model probe`: no endpoint, no key; the model proxy answers with the probe policy of the adapter's `probe:` section. */
export const PROBE_MODEL = 'probe';

export interface CliSettings {
  readonly adapter: string;
  readonly settings: Readonly<Record<string, string>>;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly cmd?: string;
}

/**
 * `--agent cli:<name>`: not an observation-in, action-out agent — the CLI runs on its own inside the sandbox and the
 * attempt observes it — so it has no `create`: the attempt's installed-agent phase runs `installed`.
 */
export function cliAgent(spec: CliSettings, env: NodeJS.ProcessEnv = process.env): InstalledAgentFactory {
  const model = spec.model ?? env.OPENAI_MODEL;
  if (!model)
    throw new HangbenchError(
      'USAGE',
      `--agent cli:${spec.adapter} needs --model NAME (the model the proxy asks the endpoint for)`,
    );
  const probe = model === PROBE_MODEL;
  let prepared: ReturnType<InstalledAgent['prepare']> | null = null;
  let timeouts: Readonly<Record<string, number>> | null = null;
  const installed: InstalledAgent = {
    adapterName: spec.adapter,
    model,
    upstream: probe ? null : (spec.baseUrl ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'),
    apiKey: probe ? undefined : env.OPENAI_API_KEY,
    ...(spec.cmd === undefined ? {} : { cmd: spec.cmd }),
    toolTimeouts: () => timeouts,
    prepare: () =>
      (prepared ??= (async () => {
        const adapter = await loadAdapter(spec.adapter);
        if (probe && !adapter.probe)
          throw new HangbenchError(
            'USAGE',
            `--model probe: adapter ${adapter.name} has no probe: section (how the probe model calls its shell tool; docs/installed-agents.md)`,
          );
        const settings = resolveSettings(adapter, spec.settings);
        timeouts = resolveTimeouts(adapter, settings);
        return { adapter, settings, installed: await installAdapter(adapter) };
      })()),
  };
  return { kind: 'installed', name: `cli:${spec.adapter}`, installed };
}
