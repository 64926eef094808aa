import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local OpenAI-compatible chat-completions server for tests: scripted replies, usage figures, injected faults. */

export interface ScriptedToolCall {
  readonly name: string;
  /** an object is sent as JSON; a string is sent as is (so it can be malformed). */
  readonly arguments?: string | Record<string, unknown>;
  readonly id?: string;
}

export interface ScriptedUsage {
  readonly prompt: number;
  readonly completion: number;
  readonly cached?: number;
}

export type ScriptedReply =
  | {
      readonly kind?: 'reply';
      readonly content?: string | null;
      readonly toolCalls?: readonly ScriptedToolCall[];
      /** null: no usage in the response; default { prompt: 100, completion: 20 }. */
      readonly usage?: ScriptedUsage | null;
      readonly delayMs?: number;
    }
  | {
      readonly kind: 'fault';
      readonly status: number;
      readonly headers?: Readonly<Record<string, string>>;
      readonly message?: string;
      readonly delayMs?: number;
    }
  /** a raw body, e.g. invalid JSON with status 200. */
  | { readonly kind: 'raw'; readonly status: number; readonly body: string };

export interface ChatRequestBody {
  readonly model: string;
  readonly messages: ReadonlyArray<{
    readonly role: string;
    readonly content?: unknown;
    readonly tool_call_id?: string;
    readonly tool_calls?: unknown[];
  }>;
  readonly tools?: ReadonlyArray<{
    readonly type: string;
    readonly function: { readonly name: string; readonly parameters?: unknown };
  }>;
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
}

export interface RecordedRequest {
  readonly body: ChatRequestBody;
  readonly headers: IncomingHttpHeaders;
}

export type Script = readonly ScriptedReply[] | ((request: RecordedRequest, index: number) => ScriptedReply);

export interface FakeOpenAI {
  /** http://127.0.0.1:PORT/v1 */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** resolves once `count` requests have arrived. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeOpenAI(script: Script): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      const request: RecordedRequest = {
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody,
        headers: req.headers,
      };
      const index = requests.push(request) - 1;
      for (const waiter of waiters.filter((entry) => entry.count <= requests.length)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const reply = typeof script === 'function' ? script(request, index) : script[index];
      if (!reply)
        return sendJson(res, 500, { error: { message: `fake server: no scripted reply for request ${index + 1}` } });
      const delayMs = 'delayMs' in reply ? (reply.delayMs ?? 0) : 0;
      const timer = setTimeout(() => respond(res, reply, request.body, index), delayMs);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    received: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function respond(res: ServerResponse, reply: ScriptedReply, body: ChatRequestBody, index: number): void {
  if (res.destroyed) return;
  if (reply.kind === 'fault') {
    return sendJson(
      res,
      reply.status,
      { error: { message: reply.message ?? `injected fault ${reply.status}`, type: 'fake_fault' } },
      reply.headers,
    );
  }
  if (reply.kind === 'raw') {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(reply.body);
    return;
  }
  const toolCalls = (reply.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${index + 1}_${position + 1}`,
    type: 'function' as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    },
  }));
  const scripted = reply.usage === undefined ? { prompt: 100, completion: 20 } : reply.usage;
  const usage = scripted && {
    prompt_tokens: scripted.prompt,
    completion_tokens: scripted.completion,
    total_tokens: scripted.prompt + scripted.completion,
    prompt_tokens_details: { cached_tokens: scripted.cached ?? 0 },
  };
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const content = reply.content ?? null;
  const head = { id: `chatcmpl-fake-${index + 1}`, created: 1_700_000_000, model: body.model };
  if (body.stream)
    return stream(res, head, content, toolCalls, finishReason, body.stream_options?.include_usage ? usage : null);
  const message = {
    role: 'assistant',
    content,
    refusal: null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  sendJson(res, 200, {
    ...head,
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    ...(usage ? { usage } : {}),
  });
}

type ToolCallOut = { id: string; type: 'function'; function: { name: string; arguments: string } };

/** Server-sent events as the real API sends them: role, content pieces, tool-call pieces, finish, usage, [DONE]. */
function stream(
  res: ServerResponse,
  head: object,
  content: string | null,
  toolCalls: ToolCallOut[],
  finishReason: string,
  usage: object | null,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choices: object[], extra: object = {}) =>
    res.write(`data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
  const delta = (value: object, finish: string | null = null) =>
    chunk([{ index: 0, delta: value, finish_reason: finish }]);
  delta({ role: 'assistant', content: '' });
  for (const piece of content?.match(/.{1,8}/gs) ?? []) delta({ content: piece });
  toolCalls.forEach((call, index) => {
    delta({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
    });
    for (const piece of call.function.arguments.match(/.{1,8}/gs) ?? [])
      delta({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  delta({}, finishReason);
  if (usage) chunk([], { usage });
  res.end('data: [DONE]\n\n');
}

function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}
