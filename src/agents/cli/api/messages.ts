import { asArray, asNumber, asRecord, pairExchanges, resultText, sse, type Refusal, type WireApi } from './types.js';

const ERROR_TYPES: Record<Refusal, string> = {
  token_budget: 'invalid_request_error',
  proxy_key: 'authentication_error',
  upstream: 'api_error',
  proxy_error: 'api_error',
};

/**
 * Anthropic Messages: `POST …/v1/messages` (Claude Code adds `?beta=true`), `stream: true` for the named events
 * message_start, content_block_start/delta/stop, message_delta, message_stop. Usage: input_tokens (plus the cache's
 * creation and read tokens, which are input too) and output_tokens, the last message_delta's being the total.
 */
export const messagesApi: WireApi = {
  name: 'messages',
  matches: (pathname) => pathname.endsWith('/messages'),
  model: (_url, body) => (typeof body?.model === 'string' ? body.model : null),
  stream: (_url, body) => body?.stream === true,
  usage(payload) {
    const record = asRecord(payload);
    const usage = asRecord(record?.usage ?? asRecord(record?.message)?.usage);
    if (!usage) return null;
    const input = asNumber(usage.input_tokens);
    const created = asNumber(usage.cache_creation_input_tokens) ?? 0;
    const read = asNumber(usage.cache_read_input_tokens) ?? 0;
    return {
      // a message_delta may carry output_tokens alone: its input stays the message_start's
      ...(input === undefined ? {} : { promptTokens: input + created + read, cachedTokens: read }),
      ...(asNumber(usage.output_tokens) === undefined ? {} : { completionTokens: asNumber(usage.output_tokens)! }),
    };
  },
  written(payload) {
    const record = asRecord(payload);
    const delta = asRecord(record?.delta);
    if (typeof delta?.text === 'string') return delta.text;
    if (typeof delta?.partial_json === 'string') return delta.partial_json;
    return asArray(record?.content)
      .map((block) => {
        const b = asRecord(block);
        return typeof b?.text === 'string'
          ? b.text
          : b?.type === 'tool_use'
            ? `${String(b.name)}${JSON.stringify(b.input)}`
            : '';
      })
      .join('');
  },
  upstreamAuth: (key) => ({ 'x-api-key': key }),
  error: (_status, message, why) => JSON.stringify({ type: 'error', error: { type: ERROR_TYPES[why], message } }),
  streamError: (message) => sse({ type: 'error', error: { type: 'api_error', message } }, 'error'),
  tools: (body) =>
    asArray(body.tools)
      .map((tool) => asRecord(tool)?.name)
      .filter((name): name is string => typeof name === 'string'),
  exchanges(body) {
    const calls: Array<{ id: string | null; name: string; args: unknown }> = [];
    const results: Array<{ id: string | null; text: string }> = [];
    for (const message of asArray(body.messages).map(asRecord)) {
      for (const block of asArray(message?.content).map(asRecord)) {
        if (message?.role === 'assistant' && block?.type === 'tool_use')
          calls.push({
            id: typeof block.id === 'string' ? block.id : null,
            name: String(block.name ?? ''),
            args: block.input ?? {},
          });
        if (message?.role === 'user' && block?.type === 'tool_result')
          results.push({
            id: typeof block.tool_use_id === 'string' ? block.tool_use_id : null,
            text: resultText(block.content),
          });
      }
    }
    return pairExchanges(calls, results);
  },
  reply(reply, stream, { model, n, usage }) {
    const block =
      'call' in reply
        ? { type: 'tool_use', id: `toolu_probe_${n}`, name: reply.call, input: reply.args }
        : { type: 'text', text: reply.text };
    const stop = 'call' in reply ? 'tool_use' : 'end_turn';
    const fullUsage = {
      input_tokens: usage.promptTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: usage.completionTokens,
    };
    const message = {
      id: `msg_probe_${n}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [block],
      stop_reason: stop,
      stop_sequence: null,
      usage: fullUsage,
    };
    if (!stream) return JSON.stringify(message);
    const event = (type: string, data: object): string => sse({ type, ...data }, type);
    const empty = 'call' in reply ? { ...block, input: {} } : { type: 'text', text: '' };
    const delta =
      'call' in reply
        ? { type: 'input_json_delta', partial_json: JSON.stringify(reply.args) }
        : { type: 'text_delta', text: reply.text };
    return [
      event('message_start', {
        message: { ...message, content: [], stop_reason: null, usage: { ...fullUsage, output_tokens: 1 } },
      }),
      event('content_block_start', { index: 0, content_block: empty }),
      event('content_block_delta', { index: 0, delta }),
      event('content_block_stop', { index: 0 }),
      event('message_delta', {
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: usage.completionTokens },
      }),
      event('message_stop', {}),
    ].join('');
  },
};
