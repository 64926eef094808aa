import { countTokens } from '../tokens.js';
import type { TokenUsage } from '../protocol.js';

export type ModelApi = 'chat' | 'responses' | 'other';

export function apiOf(pathname: string): ModelApi {
  if (pathname.endsWith('/chat/completions')) return 'chat';
  if (pathname.endsWith('/responses')) return 'responses';
  return 'other';
}

interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
  input_tokens_details?: { cached_tokens?: number };
}

/** The JSON objects of a response: the body itself, or each `data:` line of an SSE stream. */
function payloads(body: string): unknown[] {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return [JSON.parse(trimmed)];
    } catch {
      return [];
    }
  }
  const found: unknown[] = [];
  for (const line of body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    try {
      found.push(JSON.parse(data));
    } catch {
      // a line cut by the capture limit, or not JSON: no usage in it
    }
  }
  return found;
}

function usageIn(payload: unknown): RawUsage | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const record = payload as { usage?: RawUsage | null; response?: { usage?: RawUsage | null } };
  return record.usage ?? record.response?.usage ?? null;
}

/** What the model wrote, for counting when no usage came: chat deltas and messages, Responses output text and arguments. */
function textIn(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const record = payload as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof record.delta === 'string') parts.push(record.delta);
  for (const choice of (record.choices as Array<Record<string, unknown>> | undefined) ?? []) {
    const message = (choice.delta ?? choice.message) as { content?: unknown; tool_calls?: Array<{ function?: { arguments?: string; name?: string } }> } | undefined;
    if (typeof message?.content === 'string') parts.push(message.content);
    for (const call of message?.tool_calls ?? []) parts.push(`${call.function?.name ?? ''}${call.function?.arguments ?? ''}`);
  }
  return parts.join('');
}

/**
 * Tokens of one call: the endpoint's `usage` when it sent one (chat's prompt/completion, Responses' input/output, the last
 * seen in a stream), else o200k counts of the request body and of the text the model wrote.
 */
export function usageOf(requestBody: string, responseBody: string): { usage: TokenUsage; from: 'usage' | 'counted' } {
  const found = payloads(responseBody);
  const raw = found.map(usageIn).filter((usage): usage is RawUsage => usage !== null).at(-1);
  if (raw) {
    return {
      usage: {
        promptTokens: raw.prompt_tokens ?? raw.input_tokens ?? 0,
        completionTokens: raw.completion_tokens ?? raw.output_tokens ?? 0,
        cachedTokens: raw.prompt_tokens_details?.cached_tokens ?? raw.input_tokens_details?.cached_tokens ?? 0,
      },
      from: 'usage',
    };
  }
  const written = found.map(textIn).join('');
  return { usage: { promptTokens: countTokens(requestBody), completionTokens: countTokens(written), cachedTokens: 0 }, from: 'counted' };
}
