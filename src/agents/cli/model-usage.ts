import { countTokens, type TokenUsage } from '../tokens.js';
import type { WireApi } from './api/index.js';

/** The JSON objects of a response: the body itself, or each `data:` line of an SSE stream. */
export function payloads(body: string): unknown[] {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      // Gemini's non-SSE stream is a JSON array of responses.
      return Array.isArray(value) ? value : [value];
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

/**
 * Tokens of one call: the endpoint's own usage in the API's own fields (each field its last value in a stream, so
 * Anthropic's input from message_start and output from the last message_delta), else o200k counts of the request body
 * and of the text the model wrote.
 */
export function usageOf(
  api: WireApi,
  requestBody: string,
  responseBody: string,
): { usage: TokenUsage; from: 'usage' | 'counted' } {
  const found = payloads(responseBody);
  const parts = found
    .map((payload) => api.usage(payload))
    .filter((usage): usage is Partial<TokenUsage> => usage !== null);
  if (parts.length > 0) {
    const merged = Object.assign({ promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, ...parts) as TokenUsage;
    return { usage: merged, from: 'usage' };
  }
  const written = found.map((payload) => api.written(payload)).join('');
  return {
    usage: { promptTokens: countTokens(requestBody), completionTokens: countTokens(written), cachedTokens: 0 },
    from: 'counted',
  };
}
