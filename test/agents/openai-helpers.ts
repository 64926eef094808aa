import { openAIAgent, type OpenAIAgentConfig } from '../../src/agents/openai/agent.js';
import { loadPromptSet } from '../../src/agents/openai/prompt-set.js';
import { afterEach } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type Script } from '../support/fake-openai-server.js';

export const TEST_KEY = 'sk-test-DO-NOT-LEAK-4f9a2c';

export interface TestAgent {
  readonly factory: ReturnType<typeof openAIAgent>;
  /** every backoff pause the agent asked for, in ms (taken at once: tests never sleep). */
  readonly pauses: number[];
}

export function testAgent(
  server: FakeOpenAI,
  overrides: Partial<OpenAIAgentConfig> & { promptName?: string } = {},
): TestAgent {
  const pauses: number[] = [];
  const { promptName, ...config } = overrides;
  const factory = openAIAgent({
    model: 'fake-model',
    baseURL: server.baseURL,
    apiKey: TEST_KEY,
    prompt: loadPromptSet(promptName ?? 'minimal', process.cwd()),
    retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 40, retryAfterCapMs: 100 },
    sleep: async (ms) => {
      pauses.push(ms);
    },
    ...config,
  });
  return { factory, pauses };
}

type Message = FakeOpenAI['requests'][number]['body']['messages'][number];

export function lastMessage(server: FakeOpenAI): Message {
  const request = server.requests.at(-1);
  const message = request?.body.messages.at(-1);
  if (!message) throw new Error('no request yet');
  return message;
}

export function messagesOf(server: FakeOpenAI, index: number): readonly Message[] {
  const request = server.requests[index];
  if (!request) throw new Error(`no request ${index}`);
  return request.body.messages;
}

/** Registers an afterEach that closes the fake server; returns `serve(script)` that starts one for the current test. */
export function useFakeServer(): (script: Script) => Promise<FakeOpenAI> {
  let server: FakeOpenAI | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (script) => {
    const started = await startFakeOpenAI(script);
    server = started;
    return started;
  };
}
