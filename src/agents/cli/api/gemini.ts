import { asArray, asNumber, asRecord, pairExchanges, sse, type Refusal, type WireApi } from './types.js';

const STATUS: Record<Refusal, string> = {
  token_budget: 'FAILED_PRECONDITION',
  proxy_key: 'UNAUTHENTICATED',
  upstream: 'UNAVAILABLE',
  proxy_error: 'INTERNAL',
};
const CALL = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** A functionResponse's text: its `output` (Gemini CLI's shape) or `content`, else the whole response as JSON. */
function responseText(response: unknown): string {
  const record = asRecord(response);
  const output = record?.output ?? record?.content ?? record?.result;
  return typeof output === 'string' ? output : JSON.stringify(response ?? '');
}

/**
 * Gemini: `POST …/models/M:generateContent`, or `:streamGenerateContent?alt=sse` for `data:` events, each a
 * GenerateContentResponse. Tool calls are `functionCall` parts, results `functionResponse` parts; usage is
 * `usageMetadata` (promptTokenCount, candidatesTokenCount + thoughtsTokenCount, cachedContentTokenCount), the last one
 * of a stream. The key comes as `x-goog-api-key` (or `?key=`).
 */
export const geminiApi: WireApi = {
  name: 'gemini',
  matches: (pathname) => CALL.test(pathname),
  model: (url) => CALL.exec(url.pathname)?.[1] ?? null,
  stream: (url) => CALL.exec(url.pathname)?.[2] === 'streamGenerateContent',
  usage(payload) {
    const usage = asRecord(asRecord(payload)?.usageMetadata);
    if (!usage) return null;
    return {
      promptTokens: asNumber(usage.promptTokenCount) ?? 0,
      completionTokens: (asNumber(usage.candidatesTokenCount) ?? 0) + (asNumber(usage.thoughtsTokenCount) ?? 0),
      cachedTokens: asNumber(usage.cachedContentTokenCount) ?? 0,
    };
  },
  written(payload) {
    const parts = asArray(asRecord(asRecord(asArray(asRecord(payload)?.candidates)[0])?.content)?.parts).map(asRecord);
    return parts
      .map((part) =>
        typeof part?.text === 'string' ? part.text : part?.functionCall ? JSON.stringify(part.functionCall) : '',
      )
      .join('');
  },
  upstreamAuth: (key) => ({ 'x-goog-api-key': key }),
  error: (status, message, why) => JSON.stringify({ error: { code: status, message, status: STATUS[why] } }),
  streamError: (message) => sse({ error: { code: 502, message, status: 'UNAVAILABLE' } }),
  tools: (body) =>
    asArray(body.tools)
      .flatMap((tool) =>
        asArray(asRecord(tool)?.functionDeclarations).map((declaration) => asRecord(declaration)?.name),
      )
      .filter((name): name is string => typeof name === 'string'),
  exchanges(body) {
    const calls: Array<{ id: string | null; name: string; args: unknown }> = [];
    const results: Array<{ id: string | null; text: string }> = [];
    for (const content of asArray(body.contents).map(asRecord)) {
      for (const part of asArray(content?.parts).map(asRecord)) {
        const call = asRecord(part?.functionCall);
        const response = asRecord(part?.functionResponse);
        if (call)
          calls.push({
            id: typeof call.id === 'string' ? call.id : null,
            name: String(call.name ?? ''),
            args: call.args ?? {},
          });
        if (response)
          results.push({
            id: typeof response.id === 'string' ? response.id : null,
            text: responseText(response.response),
          });
      }
    }
    return pairExchanges(calls, results);
  },
  reply(reply, stream, { model, n, usage }) {
    const part =
      'call' in reply
        ? { functionCall: { id: `probe_${n}`, name: reply.call, args: reply.args } }
        : { text: reply.text };
    const usageMetadata = {
      promptTokenCount: usage.promptTokens,
      candidatesTokenCount: usage.completionTokens,
      totalTokenCount: usage.promptTokens + usage.completionTokens,
    };
    const answer = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata,
      modelVersion: model,
      responseId: `probe-${n}`,
    };
    return stream ? sse(answer) : JSON.stringify(answer);
  },
};
