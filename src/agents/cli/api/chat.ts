import {
  asArray,
  asNumber,
  asRecord,
  pairExchanges,
  parseArgs,
  resultText,
  sse,
  type Refusal,
  type WireApi,
} from './types.js';

/** OpenAI's error body (chat completions and the Responses API alike). */
export function openaiError(message: string, why: Refusal): string {
  return JSON.stringify({
    error: {
      message,
      type:
        why === 'token_budget' ? 'insufficient_quota' : why === 'proxy_key' ? 'invalid_request_error' : 'proxy_error',
      code: why,
    },
  });
}

/** OpenAI chat completions: `POST …/chat/completions`, `stream: true` for SSE chunks ending in `data: [DONE]`. */
export const chatApi: WireApi = {
  name: 'chat',
  matches: (pathname) => pathname.endsWith('/chat/completions'),
  model: (_url, body) => (typeof body?.model === 'string' ? body.model : null),
  stream: (_url, body) => body?.stream === true,
  usage(payload) {
    const usage = asRecord(asRecord(payload)?.usage);
    if (!usage) return null;
    return {
      promptTokens: asNumber(usage.prompt_tokens) ?? 0,
      completionTokens: asNumber(usage.completion_tokens) ?? 0,
      cachedTokens: asNumber(asRecord(usage.prompt_tokens_details)?.cached_tokens) ?? 0,
    };
  },
  written(payload) {
    const parts: string[] = [];
    for (const choice of asArray(asRecord(payload)?.choices)) {
      const message = asRecord(asRecord(choice)?.delta ?? asRecord(choice)?.message);
      if (typeof message?.content === 'string') parts.push(message.content);
      for (const call of asArray(message?.tool_calls)) {
        const fn = asRecord(asRecord(call)?.function);
        parts.push(
          `${typeof fn?.name === 'string' ? fn.name : ''}${typeof fn?.arguments === 'string' ? fn.arguments : ''}`,
        );
      }
    }
    return parts.join('');
  },
  upstreamAuth: (key) => ({ authorization: `Bearer ${key}` }),
  error: (_status, message, why) => openaiError(message, why),
  streamError: (message) => sse({ error: { message, type: 'proxy_error', code: 'upstream' } }),
  tools: (body) =>
    asArray(body.tools)
      .map((tool) => asRecord(asRecord(tool)?.function)?.name ?? asRecord(tool)?.name)
      .filter((name): name is string => typeof name === 'string'),
  exchanges(body) {
    const calls: Array<{ id: string | null; name: string; args: unknown }> = [];
    const results: Array<{ id: string | null; text: string }> = [];
    for (const message of asArray(body.messages).map(asRecord)) {
      if (message?.role === 'assistant') {
        for (const call of asArray(message.tool_calls).map(asRecord)) {
          const fn = asRecord(call?.function);
          calls.push({
            id: typeof call?.id === 'string' ? call.id : null,
            name: typeof fn?.name === 'string' ? fn.name : '',
            args: parseArgs(fn?.arguments),
          });
        }
      }
      if (message?.role === 'tool')
        results.push({
          id: typeof message.tool_call_id === 'string' ? message.tool_call_id : null,
          text: resultText(message.content),
        });
    }
    return pairExchanges(calls, results);
  },
  reply(reply, stream, { model, n, usage }) {
    const chatUsage = {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
    };
    const call =
      'call' in reply
        ? {
            id: `call_probe_${n}`,
            type: 'function',
            function: { name: reply.call, arguments: JSON.stringify(reply.args) },
          }
        : null;
    const finish = call ? 'tool_calls' : 'stop';
    const base = { id: `chatcmpl-probe-${n}`, created: 0, model };
    if (!stream) {
      const message = call
        ? { role: 'assistant', content: null, tool_calls: [call] }
        : { role: 'assistant', content: 'text' in reply ? reply.text : '' };
      return JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: chatUsage,
      });
    }
    const chunk = (delta: object, finishReason: string | null, extra: object = {}): string =>
      sse({
        ...base,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: finishReason }],
        ...extra,
      });
    const first = call
      ? chunk({ role: 'assistant', tool_calls: [{ index: 0, ...call }] }, null)
      : chunk({ role: 'assistant', content: 'text' in reply ? reply.text : '' }, null);
    return `${first}${chunk({}, finish, { usage: chatUsage })}data: [DONE]\n\n`;
  },
};
