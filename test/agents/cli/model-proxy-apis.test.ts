import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startProxy,
  startUpstream,
  type ProxyHarness,
  type Upstream,
  type UpstreamCall,
  type UpstreamAnswer,
} from './proxy-helpers.js';

/** Each wire API through the real proxy on its Unix socket to a loopback endpoint: JSON and SSE, usage, auth, paths, refusals. */

const sse = (data: object, event?: string): string =>
  `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

const MESSAGES_JSON = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude',
  content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }],
  stop_reason: 'tool_use',
  usage: { input_tokens: 300, cache_creation_input_tokens: 50, cache_read_input_tokens: 700, output_tokens: 40 },
};
const MESSAGES_SSE = [
  sse(
    {
      type: 'message_start',
      message: {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        content: [],
        usage: { input_tokens: 310, cache_creation_input_tokens: 0, cache_read_input_tokens: 900, output_tokens: 1 },
      },
    },
    'message_start',
  ),
  sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hello' } }, 'content_block_delta'),
  sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
  sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 25 } }, 'message_delta'),
  sse({ type: 'message_stop' }, 'message_stop'),
];
const GEMINI_JSON = {
  candidates: [
    {
      content: { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }] },
      finishReason: 'STOP',
    },
  ],
  usageMetadata: {
    promptTokenCount: 1200,
    candidatesTokenCount: 30,
    thoughtsTokenCount: 70,
    cachedContentTokenCount: 200,
    totalTokenCount: 1300,
  },
};
const GEMINI_SSE = [
  `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'hel' }] } }], usageMetadata: { promptTokenCount: 800, candidatesTokenCount: 1 } })}\r\n\r\n`,
  `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'lo' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 800, candidatesTokenCount: 12, totalTokenCount: 812 } })}\r\n\r\n`,
];
const CHAT_SSE = [
  sse({ choices: [{ index: 0, delta: { content: 'hi' } }] }),
  sse({
    choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
    usage: { prompt_tokens: 500, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 100 } },
  }),
  'data: [DONE]\n\n',
];
const RESPONSES_SSE = [
  sse({ type: 'response.output_text.delta', delta: 'hi' }, 'response.output_text.delta'),
  sse(
    {
      type: 'response.completed',
      response: { usage: { input_tokens: 600, output_tokens: 9, input_tokens_details: { cached_tokens: 0 } } },
    },
    'response.completed',
  ),
];

function answer(call: UpstreamCall): UpstreamAnswer {
  const stream =
    call.url.includes('alt=sse') || (JSON.parse(call.body || '{}') as { stream?: boolean }).stream === true;
  if (call.url.includes('/messages'))
    return stream ? { type: 'text/event-stream', chunks: MESSAGES_SSE } : { chunks: [JSON.stringify(MESSAGES_JSON)] };
  if (call.url.includes(':generateContent')) return { chunks: [JSON.stringify(GEMINI_JSON)] };
  if (call.url.includes(':streamGenerateContent')) return { type: 'text/event-stream', chunks: GEMINI_SSE };
  if (call.url.includes('/chat/completions'))
    return stream
      ? { type: 'text/event-stream', chunks: CHAT_SSE }
      : {
          chunks: [
            JSON.stringify({
              choices: [{ message: { content: 'hi' } }],
              usage: { prompt_tokens: 50, completion_tokens: 2 },
            }),
          ],
        };
  return stream
    ? { type: 'text/event-stream', chunks: RESPONSES_SSE }
    : { chunks: [JSON.stringify({ output: [], usage: { input_tokens: 60, output_tokens: 3 } })] };
}

let upstream: Upstream | null = null;
let harness: ProxyHarness | null = null;
afterEach(async () => {
  await harness?.close();
  await upstream?.close();
  harness = null;
  upstream = null;
});

async function start(budget = 1_000_000): Promise<ProxyHarness> {
  upstream = await startUpstream(answer);
  harness = await startProxy({ upstream: upstream.url, tokenBudget: budget });
  return harness;
}

describe('the model proxy speaks each API', () => {
  it('Anthropic Messages: ?beta=true, x-api-key upstream, JSON and SSE passed through, usage with the cache fields', async () => {
    const { post, seen, proxy } = await start();
    const key = { 'x-api-key': proxy.agentKey, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-2024' };
    const json = await post(
      '/v1/messages?beta=true',
      { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
      key,
    );
    expect(JSON.parse(json.text)).toEqual(MESSAGES_JSON);
    const stream = await post(
      '/v1/messages?beta=true',
      { model: 'claude-x', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      key,
    );
    expect(stream.type).toBe('text/event-stream');
    expect(stream.text).toBe(MESSAGES_SSE.join(''));
    expect(
      upstream!.calls.map((call) => [
        call.url,
        call.headers['x-api-key'],
        call.headers.authorization,
        call.headers['anthropic-version'],
        call.headers['anthropic-beta'],
      ]),
    ).toEqual([
      ['/v1/messages?beta=true', 'sk-real', undefined, '2023-06-01', 'tools-2024'],
      ['/v1/messages?beta=true', 'sk-real', undefined, '2023-06-01', 'tools-2024'],
    ]);
    expect(seen.requests.map((request) => [request.api, request.model, request.stream])).toEqual([
      ['messages', 'claude-x', false],
      ['messages', 'claude-x', true],
    ]);
    expect(seen.responses.map((response) => [response.tokensFrom, response.usage])).toEqual([
      ['usage', { promptTokens: 1050, completionTokens: 40, cachedTokens: 700 }],
      ['usage', { promptTokens: 1210, completionTokens: 25, cachedTokens: 900 }],
    ]);
    await proxy.written();
    expect(await readFile(seen.responses[1]!.bodyFile, 'utf8')).toBe(MESSAGES_SSE.join(''));
  });

  it('Gemini: generateContent and streamGenerateContent?alt=sse under /v1beta, x-goog-api-key both ways, usageMetadata', async () => {
    const { post, seen, proxy } = await start();
    const key = { 'x-goog-api-key': proxy.agentKey };
    const json = await post(
      '/v1beta/models/gemini-2.5-pro:generateContent',
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      key,
    );
    expect(JSON.parse(json.text)).toEqual(GEMINI_JSON);
    const stream = await post(
      '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      key,
    );
    expect(stream.text).toBe(GEMINI_SSE.join(''));
    // the upstream is given as …/v1: the agent's /v1beta is replaced by it, as /v1 is for the other APIs
    expect(upstream!.calls.map((call) => [call.url, call.headers['x-goog-api-key']])).toEqual([
      ['/v1/models/gemini-2.5-pro:generateContent', 'sk-real'],
      ['/v1/models/gemini-2.5-pro:streamGenerateContent?alt=sse', 'sk-real'],
    ]);
    expect(seen.requests.map((request) => [request.api, request.model, request.stream])).toEqual([
      ['gemini', 'gemini-2.5-pro', false],
      ['gemini', 'gemini-2.5-pro', true],
    ]);
    expect(seen.responses.map((response) => response.usage)).toEqual([
      { promptTokens: 1200, completionTokens: 100, cachedTokens: 200 },
      { promptTokens: 800, completionTokens: 12, cachedTokens: 0 },
    ]);
  });

  it('a ?key= query is taken as the agent key and not forwarded', async () => {
    const { post, proxy } = await start();
    const answered = await post(`/v1beta/models/m:generateContent?key=${proxy.agentKey}`, { contents: [] }, {});
    expect(answered.status).toBe(200);
    expect(upstream!.calls[0]!.url).toBe('/v1/models/m:generateContent');
  });

  it('OpenAI chat and Responses: bearer key, JSON and SSE, usage', async () => {
    const { post, seen } = await start();
    expect((await post('/v1/chat/completions', { model: 'm', messages: [] })).text).toContain('"prompt_tokens":50');
    expect((await post('/v1/chat/completions', { model: 'm', stream: true, messages: [] })).text).toBe(
      CHAT_SSE.join(''),
    );
    expect((await post('/v1/responses', { model: 'm', input: 'hi' })).text).toContain('"input_tokens":60');
    expect((await post('/v1/responses', { model: 'm', stream: true, input: 'hi' })).text).toBe(RESPONSES_SSE.join(''));
    expect(upstream!.calls.every((call) => call.headers.authorization === 'Bearer sk-real')).toBe(true);
    expect(seen.requests.map((request) => `${request.api}:${request.stream}`)).toEqual([
      'chat:false',
      'chat:true',
      'responses:false',
      'responses:true',
    ]);
    expect(seen.responses.map((response) => response.usage)).toEqual([
      { promptTokens: 50, completionTokens: 2, cachedTokens: 0 },
      { promptTokens: 500, completionTokens: 7, cachedTokens: 100 },
      { promptTokens: 60, completionTokens: 3, cachedTokens: 0 },
      { promptTokens: 600, completionTokens: 9, cachedTokens: 0 },
    ]);
  });

  it('past the token budget each API gets the refusal in its own error shape, and the endpoint is not called', async () => {
    const { post, seen, proxy } = await start(50);
    await post('/v1/chat/completions', { model: 'm', messages: [] });
    const refusals = {
      chat: await post('/v1/chat/completions', { model: 'm', messages: [] }),
      responses: await post('/v1/responses', { model: 'm', input: 'x' }),
      messages: await post('/v1/messages', { model: 'm', messages: [] }, { 'x-api-key': proxy.agentKey }),
      gemini: await post(
        '/v1beta/models/m:streamGenerateContent?alt=sse',
        { contents: [] },
        { 'x-goog-api-key': proxy.agentKey },
      ),
    };
    expect(upstream!.calls).toHaveLength(1);
    expect(Object.values(refusals).map((refusal) => refusal.status)).toEqual([400, 400, 400, 400]);
    expect(JSON.parse(refusals.chat.text)).toMatchObject({
      error: { type: 'insufficient_quota', code: 'token_budget' },
    });
    expect(JSON.parse(refusals.responses.text)).toMatchObject({
      error: { type: 'insufficient_quota', code: 'token_budget' },
    });
    expect(JSON.parse(refusals.messages.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/token budget of 50 is spent/) },
    });
    expect(JSON.parse(refusals.gemini.text)).toMatchObject({
      error: { code: 400, status: 'FAILED_PRECONDITION', message: expect.stringMatching(/token budget/) },
    });
    expect(seen.over).toEqual([52]);
    expect(seen.responses.slice(1).every((response) => response.refused?.includes('token budget'))).toBe(true);
  });

  it("refuses a key that is not the attempt's in each API's shape", async () => {
    const { post } = await start();
    const messages = await post('/v1/messages', { model: 'm', messages: [] }, { 'x-api-key': 'sk-real' });
    const gemini = await post('/v1beta/models/m:generateContent', { contents: [] }, { 'x-goog-api-key': 'nope' });
    expect([messages.status, gemini.status]).toEqual([401, 401]);
    expect(JSON.parse(messages.text)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(JSON.parse(gemini.text)).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    expect(upstream!.calls).toHaveLength(0);
  });
});
