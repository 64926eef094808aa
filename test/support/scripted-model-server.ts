import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call the scripted model received: the path, and the body as JSON. */
export interface ModelCall {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly authorization: string | undefined;
}

/** What the model answers: text, a tool call in the CLI's own tool names and argument schemas, or an HTTP error. */
export type ModelReply =
  | { readonly text: string }
  | { readonly call: string; readonly args: Record<string, unknown> }
  | { readonly status: number; readonly error: string };

/** A step sees every call so far (the last is the one to answer), so it can refer to what the CLI sent back. */
export type ModelStep = (calls: readonly ModelCall[]) => ModelReply;

export interface ScriptedModel {
  /** base URL with /v1, as --base-url takes it. */
  readonly url: string;
  readonly calls: ModelCall[];
  close(): Promise<void>;
}

const USAGE = {
  input_tokens: 1000,
  output_tokens: 20,
  total_tokens: 1020,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

/**
 * A model on loopback that follows a script: chat completions, the Responses API, Anthropic Messages and Gemini, streamed
 * (SSE) or not, one step per model call; past the script it says "done." It drives a real agent CLI through its own tools.
 */
export async function startScriptedModel(
  steps: readonly ModelStep[],
  options: { usage?: boolean; aside?: (call: ModelCall) => ModelReply | null } = {},
): Promise<ScriptedModel> {
  const calls: ModelCall[] = [];
  let answered = 0;
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://model').pathname;
      const isChat = path.endsWith('/chat/completions');
      const isMessages = path.endsWith('/messages');
      const gemini = /:(streamGenerateContent|generateContent)$/.exec(path)?.[1];
      if (request.method !== 'POST' || (!isChat && !isMessages && !gemini && !path.endsWith('/responses'))) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here"}}');
        return;
      }
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      const call = { path, body, authorization: request.headers.authorization };
      // A CLI's side calls (opencode's session title) are answered without using up a step of the script.
      const aside = options.aside?.(call) ?? null;
      if (aside === null) calls.push(call);
      const step = aside === null ? steps[answered++] : undefined;
      const reply = aside ?? (step ? step(calls) : { text: 'done.' });
      if ('status' in reply) {
        response
          .writeHead(reply.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: reply.error, type: 'invalid_request_error' } }));
        return;
      }
      const usage = options.usage === false ? null : USAGE;
      if (isChat) chatReply(response, reply, body.stream === true, usage, answered);
      else if (isMessages) messagesReply(response, reply, body.stream === true, usage, answered);
      else if (gemini) geminiReply(response, reply, gemini === 'streamGenerateContent', usage);
      else responsesReply(response, reply, body.stream === true, usage, answered);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

type Usage = typeof USAGE | null;

function responsesReply(
  response: http.ServerResponse,
  reply: Exclude<ModelReply, { status: number }>,
  stream: boolean,
  usage: Usage,
  n: number,
): void {
  const item =
    'call' in reply
      ? {
          type: 'function_call',
          id: `fc_${n}`,
          call_id: `call_${n}`,
          name: reply.call,
          arguments: JSON.stringify(reply.args),
          status: 'completed',
        }
      : {
          type: 'message',
          id: `msg_${n}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: reply.text, annotations: [] }],
        };
  const done = {
    id: `resp_${n}`,
    object: 'response',
    status: 'completed',
    output: [item],
    ...(usage ? { usage } : {}),
  };
  if (!stream) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(done));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type: string, data: object): boolean =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('response.created', { response: { id: `resp_${n}`, status: 'in_progress', output: [] } });
  send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress' } });
  if (!('call' in reply))
    send('response.output_text.delta', { output_index: 0, content_index: 0, item_id: item.id, delta: reply.text });
  send('response.output_item.done', { output_index: 0, item });
  send('response.completed', { response: done });
  response.end();
}

function chatReply(
  response: http.ServerResponse,
  reply: Exclude<ModelReply, { status: number }>,
  stream: boolean,
  usage: Usage,
  n: number,
): void {
  const chatUsage = usage
    ? { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.total_tokens }
    : undefined;
  const message =
    'call' in reply
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${n}`,
              type: 'function',
              function: { name: reply.call, arguments: JSON.stringify(reply.args) },
            },
          ],
        }
      : { role: 'assistant', content: reply.text };
  const finish = 'call' in reply ? 'tool_calls' : 'stop';
  if (!stream) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        created: 0,
        model: 'scripted',
        choices: [{ index: 0, message, finish_reason: finish }],
        ...(chatUsage ? { usage: chatUsage } : {}),
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: object, finishReason: string | null, extra: object = {}): boolean =>
    response.write(
      `data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
    );
  if ('call' in reply) chunk({ role: 'assistant', tool_calls: [{ index: 0, ...message.tool_calls![0] }] }, null);
  else chunk({ role: 'assistant', content: reply.text }, null);
  chunk({}, finish, chatUsage ? { usage: chatUsage } : {});
  response.end('data: [DONE]\n\n');
}

/** Anthropic Messages: one text or tool_use block, streamed as message_start / content_block_* / message_delta / message_stop. */
function messagesReply(
  response: http.ServerResponse,
  reply: Exclude<ModelReply, { status: number }>,
  stream: boolean,
  usage: Usage,
  n: number,
): void {
  const block =
    'call' in reply
      ? { type: 'tool_use', id: `toolu_${n}`, name: reply.call, input: reply.args }
      : { type: 'text', text: reply.text };
  const stop = 'call' in reply ? 'tool_use' : 'end_turn';
  const tokens = { input_tokens: usage?.input_tokens ?? 0, output_tokens: usage?.output_tokens ?? 0 };
  const message = {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: 'scripted',
    content: [block],
    stop_reason: stop,
    stop_sequence: null,
    usage: tokens,
  };
  if (!stream) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type: string, data: object): boolean =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', {
    message: {
      ...message,
      content: [],
      stop_reason: null,
      usage: { input_tokens: tokens.input_tokens, output_tokens: 0 },
    },
  });
  send('content_block_start', {
    index: 0,
    content_block: 'call' in reply ? { ...block, input: {} } : { type: 'text', text: '' },
  });
  send('content_block_delta', {
    index: 0,
    delta:
      'call' in reply
        ? { type: 'input_json_delta', partial_json: JSON.stringify(reply.args) }
        : { type: 'text_delta', text: reply.text },
  });
  send('content_block_stop', { index: 0 });
  send('message_delta', {
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: tokens.output_tokens },
  });
  send('message_stop', {});
  response.end();
}

/** Gemini generateContent / streamGenerateContent?alt=sse: one candidate with a text or functionCall part. */
function geminiReply(
  response: http.ServerResponse,
  reply: Exclude<ModelReply, { status: number }>,
  stream: boolean,
  usage: Usage,
): void {
  const part = 'call' in reply ? { functionCall: { name: reply.call, args: reply.args } } : { text: reply.text };
  const body = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    ...(usage
      ? {
          usageMetadata: {
            promptTokenCount: usage.input_tokens,
            candidatesTokenCount: usage.output_tokens,
            totalTokenCount: usage.total_tokens,
          },
        }
      : {}),
    modelVersion: 'scripted',
  };
  if (!stream) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(body)}\r\n\r\n`);
}

/** The text of a Messages call's last tool_result block (what Claude Code's tool told the model). */
export function lastMessagesToolResult(call: ModelCall | undefined): string {
  const messages = (call?.body.messages as Array<{ content?: unknown }> | undefined) ?? [];
  const blocks = messages.flatMap((message) =>
    Array.isArray(message.content) ? (message.content as Array<{ type?: string; content?: unknown }>) : [],
  );
  const content = blocks.filter((block) => block.type === 'tool_result').at(-1)?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? (content as Array<{ text?: string }>).map((item) => item.text ?? '').join('')
    : JSON.stringify(content ?? '');
}

/** The output of a Gemini call's last functionResponse part (what Gemini CLI's tool told the model). */
export function lastGeminiFunctionResponse(call: ModelCall | undefined): string {
  const contents =
    (call?.body.contents as Array<{ parts?: Array<{ functionResponse?: { response?: unknown } }> }> | undefined) ?? [];
  const response = contents
    .flatMap((content) => content.parts ?? [])
    .filter((part) => part.functionResponse)
    .at(-1)?.functionResponse?.response;
  return JSON.stringify(response ?? '');
}

/** The text of a chat completions call's last tool message (what the CLI's tool told the model). */
export function lastChatToolOutput(call: ModelCall | undefined): string {
  const messages = (call?.body.messages as Array<{ role?: string; content?: unknown }> | undefined) ?? [];
  const content = messages.filter((message) => message.role === 'tool').at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
}

/** The text of a Responses API call's last function_call_output (what the CLI's tool told the model). */
export function lastToolOutput(call: ModelCall | undefined): string {
  const input = (call?.body.input as Array<{ type?: string; output?: unknown }> | undefined) ?? [];
  const output = input.filter((item) => item.type === 'function_call_output').at(-1)?.output;
  return typeof output === 'string' ? output : JSON.stringify(output ?? '');
}
