import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { Action } from '../../types/actions.js';
import { EndpointError } from '../../types/errors.js';
import type { Tick } from '../../types/process.js';
import type { AgentContext, LoopAgentFactory, AgentSession, Observation } from '../protocol.js';
import type { ResponseCache } from './cache.js';
import { Conversation } from './conversation.js';
import { complete, endpointLabel, type Endpoint } from './endpoint.js';
import { TokenLedger } from './ledger.js';
import { observationText } from './observation-text.js';
import type { PromptSet } from './prompt-set.js';
import { DEFAULTS } from '../../defaults.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { ACTION_TOOLS } from './tools.js';
import { usageOf } from './usage.js';

export interface OpenAIAgentConfig {
  readonly model: string;
  /** undefined: the client's default (OPENAI_BASE_URL, else api.openai.com). */
  readonly baseURL?: string;
  readonly apiKey: string;
  readonly prompt: PromptSet;
  readonly cache?: ResponseCache;
  readonly retry?: Partial<RetryPolicy>;
  readonly requestTimeoutMs?: number;
  /** for tests: how backoff pauses are taken. */
  readonly sleep?: Endpoint['sleep'];
}

/** Replies in a row without a tool call before the agent gives up, and replies with only invalid calls. */
const MAX_TEXT_REPLIES = 2;
const MAX_INVALID_REPLIES = 5;
const NUDGE =
  'Reply with exactly one tool call (run, wait, poll, kill, input, read, write, edit or finish); call finish when you are done.';

/** A tool-calling loop over chat completions: tools are the actions, ticks are tool results (or user messages). */
export function openAIAgent(config: OpenAIAgentConfig): LoopAgentFactory {
  const endpoint: Endpoint = {
    client: new OpenAI({
      apiKey: config.apiKey,
      baseURL: config.baseURL,
      maxRetries: 0,
      timeout: config.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    }),
    label: endpointLabel(config.baseURL ?? process.env.OPENAI_BASE_URL),
    apiKey: config.apiKey,
    retry: { ...DEFAULT_RETRY, ...config.retry },
    sleep: config.sleep,
  };
  return {
    name: 'openai',
    tickTemplate: config.prompt.tick,
    ...(config.prompt.tickTokens === null ? {} : { tickTokens: config.prompt.tickTokens }),
    create: (context) => new OpenAISession(config, endpoint, context),
  };
}

class OpenAISession implements AgentSession {
  private readonly chat: Conversation;
  private readonly ledger = new TokenLedger();
  private readonly config: OpenAIAgentConfig;
  private readonly endpoint: Endpoint;
  private readonly context: AgentContext;
  private turn = 0;
  private readonly hints: string[] = [];

  constructor(config: OpenAIAgentConfig, endpoint: Endpoint, context: AgentContext) {
    this.config = config;
    this.endpoint = endpoint;
    this.context = context;
    this.chat = new Conversation(config.prompt.system.render({}));
  }

  /** Hints wait for the observation they ride on: a user message may not come between a tool call and its result. */
  hint(text: string): void {
    this.hints.push(text);
  }

  async next(observation: Observation): Promise<Action> {
    if (observation.type === 'tick') {
      // The session rendered it with this prompt's tick template and recorded exactly this text.
      this.deliverTick(observation.tick, withNotices(observation.text, observation.notices));
    } else if (observation.type === 'task') {
      this.chat.user(
        this.config.prompt.task.render({
          issue: observation.issue.trim(),
          repro: observation.repro,
          files: observation.files.map((file) => `- ${file}`).join('\n'),
        }),
      );
    } else {
      this.chat.answer(withNotices(observationText(observation), observation.notices));
    }
    if (this.hints.length > 0) {
      this.chat.dropQueued('not run: the user sent a message first; call it again if you still want it');
      for (const text of this.hints.splice(0)) this.chat.user(text);
      return this.askModel();
    }
    return this.chat.nextQueued(observation.type === 'tick') ?? this.askModel();
  }

  private deliverTick(tick: Tick, text: string): void {
    const { prompt } = this.config;
    if (prompt.tickDelivery === 'tool-result') {
      this.chat.answer(text);
      return;
    }
    this.chat.answer(`command #${tick.commandId} is still running; monitor report ${tick.seq} follows`);
    this.chat.user(text);
  }

  private async askModel(): Promise<Action> {
    let textReplies = 0;
    for (let invalidReplies = 0; invalidReplies < MAX_INVALID_REPLIES;) {
      const message = await this.call();
      if (this.chat.assistant(message) === 0) {
        textReplies += 1;
        if (textReplies >= MAX_TEXT_REPLIES)
          return {
            type: 'finish',
            summary: `the model stopped calling tools: ${(message.content ?? '').slice(0, 2000)}`,
          };
        this.chat.user(NUDGE);
        continue;
      }
      const action = this.chat.nextQueued(false);
      if (action) return action;
      invalidReplies += 1;
    }
    return { type: 'finish', summary: `gave up: ${MAX_INVALID_REPLIES} replies in a row had only invalid tool calls` };
  }

  private async call(): Promise<ChatCompletion['choices'][number]['message']> {
    const { messages } = this.chat;
    const budget = this.context.budgets?.tokens;
    if (budget !== undefined) this.ledger.checkBefore(messages, ACTION_TOOLS, budget);
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.config.model,
      messages: [...messages],
      tools: [...ACTION_TOOLS],
    };
    this.turn += 1;
    const { reporter } = this.context;
    reporter.request(this.turn, messages.length);
    const started = performance.now();
    const { response, cached } = await this.respond(body);
    const latencyMs = cached ? 0 : Math.round(performance.now() - started);
    const message = response.choices[0]?.message;
    if (!message) throw new EndpointError(`model endpoint ${this.endpoint.label} answered without a choice`, null);
    const { estimated, ...usage } = usageOf(
      response,
      () => this.ledger.estimatePrompt(messages, ACTION_TOOLS),
      message,
    );
    if (estimated)
      reporter.note?.('agent', `the endpoint sent no usage; tokens of turn ${this.turn} counted with o200k`);
    this.ledger.record(usage, messages.length);
    reporter.response(this.turn, usage, latencyMs);
    return message;
  }

  /** From the cache when --cache is on and has it (its recorded usage counts again, so budgets behave the same), else from the endpoint. */
  private async respond(
    body: ChatCompletionCreateParamsNonStreaming,
  ): Promise<{ response: ChatCompletion; cached: boolean }> {
    const { cache } = this.config;
    const repeat = this.context.repeat;
    const key = cache?.key(body, repeat);
    const hit = cache && key ? await cache.get(key) : null;
    if (hit) {
      this.context.reporter.note?.('cache', `turn ${this.turn}: response from the cache (${key?.slice(0, 12)})`);
      return { response: hit, cached: true };
    }
    const response = await complete(this.endpoint, body, this.context.signal, (note) =>
      this.context.reporter.note?.('retry', note),
    );
    if (cache && key) await cache.put(key, body, repeat, response);
    return { response, cached: false };
  }
}

function withNotices(text: string, notices: readonly string[] | undefined): string {
  return notices && notices.length > 0 ? `${text}\n${notices.map((notice) => `[${notice}]`).join('\n')}` : text;
}
