import path from 'node:path';
import { DEFAULTS } from '../../defaults.js';
import { HangbenchError } from '../../types/errors.js';
import type { LoopAgentFactory } from '../protocol.js';
import { openAIAgent } from './agent.js';
import { ResponseCache } from './cache.js';
import { loadPromptSet } from './prompt-set.js';

export interface OpenAISettings {
  readonly model?: string;
  readonly baseUrl?: string;
  readonly prompt?: string;
  readonly cache?: string;
  readonly cwd?: string;
  readonly timeScale?: number;
}

/** `--agent openai` from CLI settings; the key comes from the environment only, so it never lands in options or meta.json. */
export function openAIAgentFromSettings(
  settings: OpenAISettings,
  env: NodeJS.ProcessEnv = process.env,
): LoopAgentFactory {
  if (!settings.model)
    throw new HangbenchError('USAGE', '--agent openai needs --model NAME (e.g. --model gpt-4o-mini)');
  const apiKey = env.OPENAI_API_KEY;
  if (!apiKey) {
    throw new HangbenchError(
      'USAGE',
      '--agent openai needs OPENAI_API_KEY in the environment (any non-empty value for a local server without auth)',
    );
  }
  const cwd = settings.cwd ?? process.cwd();
  return openAIAgent({
    model: settings.model,
    baseURL: settings.baseUrl ?? env.OPENAI_BASE_URL,
    apiKey,
    prompt: loadPromptSet(settings.prompt ?? DEFAULTS.prompt, cwd),
    ...(settings.cache ? { cache: new ResponseCache(path.resolve(cwd, settings.cache)) } : {}),
  });
}
