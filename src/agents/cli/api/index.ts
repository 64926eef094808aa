import { chatApi } from './chat.js';
import { geminiApi } from './gemini.js';
import { messagesApi } from './messages.js';
import { responsesApi } from './responses.js';
import { asRecord, type WireApi } from './types.js';
import { openaiError } from './chat.js';

export type { ModelApi, ModelReply, Refusal, ToolExchange, WireApi } from './types.js';
export { JSON_TYPE, SSE_TYPE } from './types.js';

/** A path none of the APIs claims: forwarded as it is with a bearer key, answered in OpenAI's error shape. */
export const otherApi: WireApi = {
  name: 'other',
  matches: () => true,
  model: (_url, body) => (typeof body?.model === 'string' ? body.model : null),
  stream: (_url, body) => body?.stream === true,
  usage: (payload) => chatApi.usage(payload) ?? responsesApi.usage(asRecord(payload)),
  written: () => '',
  upstreamAuth: (key) => ({ authorization: `Bearer ${key}` }),
  error: (_status, message, why) => openaiError(message, why),
  streamError: chatApi.streamError,
  tools: () => [],
  exchanges: () => [],
  reply: chatApi.reply,
};

/** Every API the proxy speaks, first match wins: adding one is adding a module and an entry here. */
const APIS: readonly WireApi[] = [geminiApi, chatApi, responsesApi, messagesApi];

export function apiFor(pathname: string): WireApi {
  return APIS.find((api) => api.matches(pathname)) ?? otherApi;
}

export { chatApi, geminiApi, messagesApi, responsesApi };
