import type { TokenUsage } from '../../tokens.js';

/** The wire APIs the model proxy speaks; `other` is any path it does not know, forwarded as it is. */
export const MODEL_APIS = ['chat', 'responses', 'messages', 'gemini', 'other'] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

/** Why the proxy answers a call itself with an error. */
export type Refusal = 'token_budget' | 'proxy_key' | 'upstream' | 'proxy_error';

/** One tool call the model made in the conversation a request carries, with the result the CLI sent back (null: none yet). */
export interface ToolExchange {
  readonly id: string | null;
  readonly name: string;
  readonly args: unknown;
  readonly result: string | null;
}

/** What the model says in one answer: a text, or one call of a tool the CLI offered. */
export type ModelReply =
  { readonly text: string } | { readonly call: string; readonly args: Readonly<Record<string, unknown>> };

/** What an answer the proxy writes itself reports as its usage. */
export interface ReplyMeta {
  readonly model: string;
  /** the number of this call in the attempt: ids are made from it, so answers are deterministic. */
  readonly n: number;
  readonly usage: TokenUsage;
}

/**
 * One wire API as data and small pure functions: how a call is recognised, what it asks for, where its usage is, what
 * its errors look like, the conversation it carries, and how an answer of the proxy's own is written (JSON or SSE).
 */
export interface WireApi {
  readonly name: ModelApi;
  matches(pathname: string): boolean;
  model(url: URL, body: Record<string, unknown> | null): string | null;
  stream(url: URL, body: Record<string, unknown> | null): boolean;
  /** the endpoint's own counts in one payload (a JSON body, or one SSE event), or null when it has none. */
  usage(payload: unknown): Partial<TokenUsage> | null;
  /** what the model wrote in one payload, for counting when no usage came. */
  written(payload: unknown): string;
  /** the headers that carry the real key upstream. */
  upstreamAuth(key: string): Record<string, string>;
  /** an error the proxy answers with, in this API's own shape. */
  error(status: number, message: string, why: Refusal): string;
  /** an error inside a stream whose headers are already sent: one SSE event in this API's own shape. */
  streamError(message: string): string;
  /** the tools the call offers the model, by name. */
  tools(body: Record<string, unknown>): string[];
  /** the tool calls the conversation holds so far, in order, each with its result. */
  exchanges(body: Record<string, unknown>): ToolExchange[];
  /** an answer of the proxy's own (the probe model), as the body text to send. */
  reply(reply: ModelReply, stream: boolean, meta: ReplyMeta): string;
}

export const JSON_TYPE = 'application/json';
export const SSE_TYPE = 'text/event-stream';

/** An SSE event: `event:` line when named, one `data:` line. */
export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** A tool result's text: a string as it is; an array of text parts joined; anything else as JSON. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        typeof part === 'string'
          ? part
          : typeof (part as { text?: unknown })?.text === 'string'
            ? (part as { text: string }).text
            : JSON.stringify(part),
      )
      .join('');
  }
  return JSON.stringify(content ?? '');
}

export function parseArgs(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Results matched to their calls by id (or, without ids, in order), in the order the calls were made. */
export function pairExchanges(
  calls: ReadonlyArray<Omit<ToolExchange, 'result'>>,
  results: ReadonlyArray<{ id: string | null; text: string }>,
): ToolExchange[] {
  const byId = new Map(results.filter((result) => result.id !== null).map((result) => [result.id, result.text]));
  const unnamed = results.filter((result) => result.id === null);
  let next = 0;
  return calls.map((call) => ({
    ...call,
    result: call.id !== null && byId.has(call.id) ? byId.get(call.id)! : (unnamed[next++]?.text ?? null),
  }));
}
