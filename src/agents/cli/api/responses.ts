import { openaiError } from './chat.js';
import { asArray, asNumber, asRecord, pairExchanges, parseArgs, resultText, sse, type WireApi } from './types.js';

/** OpenAI's Responses API: `POST …/responses`, `stream: true` for named SSE events ending in `response.completed`. */
export const responsesApi: WireApi = {
  name: 'responses',
  matches: (pathname) => pathname.endsWith('/responses'),
  model: (_url, body) => (typeof body?.model === 'string' ? body.model : null),
  stream: (_url, body) => body?.stream === true,
  usage(payload) {
    const record = asRecord(payload);
    const usage = asRecord(record?.usage ?? asRecord(record?.response)?.usage);
    if (!usage) return null;
    return {
      promptTokens: asNumber(usage.input_tokens) ?? 0,
      completionTokens: asNumber(usage.output_tokens) ?? 0,
      cachedTokens: asNumber(asRecord(usage.input_tokens_details)?.cached_tokens) ?? 0,
    };
  },
  written(payload) {
    const record = asRecord(payload);
    if (typeof record?.delta === 'string') return record.delta;
    const item = asRecord(record?.item);
    if (record?.type === 'response.output_item.done' && item?.type === 'function_call')
      return `${String(item.name)}${String(item.arguments)}`;
    return '';
  },
  upstreamAuth: (key) => ({ authorization: `Bearer ${key}` }),
  error: (_status, message, why) => openaiError(message, why),
  streamError: (message) => sse({ type: 'error', code: 'upstream', message, param: null }, 'error'),
  tools: (body) =>
    asArray(body.tools)
      .map((tool) => asRecord(tool)?.name)
      .filter((name): name is string => typeof name === 'string'),
  exchanges(body) {
    const calls: Array<{ id: string | null; name: string; args: unknown }> = [];
    const results: Array<{ id: string | null; text: string }> = [];
    for (const item of asArray(body.input).map(asRecord)) {
      const id = typeof item?.call_id === 'string' ? item.call_id : null;
      if (item?.type === 'function_call' || item?.type === 'custom_tool_call')
        calls.push({ id, name: String(item.name ?? ''), args: parseArgs(item.arguments ?? item.input) });
      if (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output')
        results.push({ id, text: resultText(item.output) });
    }
    return pairExchanges(calls, results);
  },
  reply(reply, stream, { model, n, usage }) {
    const item =
      'call' in reply
        ? {
            type: 'function_call',
            id: `fc_probe_${n}`,
            call_id: `call_probe_${n}`,
            name: reply.call,
            arguments: JSON.stringify(reply.args),
            status: 'completed',
          }
        : {
            type: 'message',
            id: `msg_probe_${n}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: reply.text, annotations: [] }],
          };
    const responsesUsage = {
      input_tokens: usage.promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.completionTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.promptTokens + usage.completionTokens,
    };
    const done = {
      id: `resp_probe_${n}`,
      object: 'response',
      created_at: 0,
      model,
      status: 'completed',
      output: [item],
      usage: responsesUsage,
    };
    if (!stream) return JSON.stringify(done);
    const event = (type: string, data: object): string => sse({ type, ...data }, type);
    return [
      event('response.created', { response: { ...done, status: 'in_progress', output: [], usage: null } }),
      event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress' } }),
      'text' in reply
        ? event('response.output_text.delta', {
            output_index: 0,
            content_index: 0,
            item_id: item.id,
            delta: reply.text,
          })
        : '',
      event('response.output_item.done', { output_index: 0, item }),
      event('response.completed', { response: done }),
    ].join('');
  },
};
