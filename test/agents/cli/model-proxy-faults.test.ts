import http from 'node:http';
import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startProxy, startUpstream, type ProxyHarness, type Upstream } from './proxy-helpers.js';

/** What must not take the proxy (and with it the run) down: each becomes an answer in the caller's API shape and a record. */

let upstream: Upstream | null = null;
let harness: ProxyHarness | null = null;
afterEach(async () => {
  await harness?.close();
  await upstream?.close();
  harness = null;
  upstream = null;
});

const sseChunk = (n: number): string =>
  `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `word${n} ` } })}\n\n`;

/** Reads the first chunk of a streamed answer, then drops the connection. */
function readFirstThenAbort(
  socketPath: string,
  route: string,
  headers: Record<string, string>,
  body: object,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath, path: route, method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        response.once('data', (chunk: Buffer) => {
          request.destroy();
          resolve(chunk.toString());
        });
      },
    );
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    request.end(JSON.stringify(body));
  });
}

describe('the model proxy under faults', () => {
  it("a handler that throws (a broken event listener) answers 500 in the caller's API shape and records it; the next call is served", async () => {
    upstream = await startUpstream(() => ({ chunks: ['{"output":[]}'] }));
    let throwOnce = true;
    const responses: unknown[] = [];
    harness = await startProxy(
      { upstream: upstream.url },
      {
        request: () => {
          if (throwOnce) {
            throwOnce = false;
            throw new Error('listener broke');
          }
        },
        response: (call) => responses.push(call),
      },
    );
    const failed = await harness.post(
      '/v1/messages',
      { model: 'm', messages: [] },
      { 'x-api-key': harness.proxy.agentKey },
    );
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.text)).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: expect.stringMatching(/internal error: listener broke/) },
    });
    expect(responses[0]).toMatchObject({ request: 1, status: 500, refused: expect.stringMatching(/listener broke/) });
    expect((await harness.post('/v1/responses', { model: 'm', input: 'x' })).status).toBe(200);
  });

  it('an agent that goes away mid-stream: the upstream stream is ended, the call recorded as broken, the proxy goes on', async () => {
    let release: () => void = () => undefined;
    const upstreamClosed = new Promise<void>((resolve) => (release = resolve));
    const server = http.createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(sseChunk(0));
      const timer = setInterval(() => response.write(sseChunk(1)), 20);
      response.on('close', () => {
        clearInterval(timer);
        release();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      harness = await startProxy({ upstream: `http://127.0.0.1:${port}/v1` });
      const first = await readFirstThenAbort(
        path.join(harness.dir, 'model.sock'),
        '/v1/messages',
        { 'x-api-key': harness.proxy.agentKey },
        { model: 'm', stream: true, messages: [] },
      );
      expect(first).toContain('word0');
      await upstreamClosed;
      await expect.poll(() => harness!.seen.responses.length).toBe(1);
      expect(harness.seen.responses[0]!.broken).toMatch(/agent closed the connection/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("an endpoint that resets inside a stream: the agent gets an error event in its API's shape, and the call is recorded as broken", async () => {
    upstream = await startUpstream(() => ({
      type: 'text/event-stream',
      chunks: [sseChunk(0), sseChunk(1)],
      reset: true,
    }));
    harness = await startProxy({ upstream: upstream.url });
    const answer = await harness.post(
      '/v1/messages',
      { model: 'm', stream: true, messages: [] },
      { 'x-api-key': harness.proxy.agentKey },
    );
    expect(answer.text).toContain('word1');
    expect(answer.text).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"hangbench model proxy: the stream broke off/,
    );
    expect(harness.seen.responses[0]).toMatchObject({ status: 200, broken: expect.stringMatching(/broke off/) });
  });

  it("an endpoint that never answers is abandoned at the idle timeout with a 504 in the caller's shape", async () => {
    upstream = await startUpstream(() => ({ chunks: [], silent: true }));
    harness = await startProxy({ upstream: upstream.url, upstreamIdleMs: 300 });
    const answer = await harness.post(
      '/v1beta/models/m:generateContent',
      { contents: [] },
      { 'x-goog-api-key': harness.proxy.agentKey },
    );
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.text)).toMatchObject({
      error: {
        code: 504,
        status: 'UNAVAILABLE',
        message: expect.stringMatching(/no byte from the endpoint for 300 ms/),
      },
    });
  });

  it('bodies are written up to the cap, with a line saying what was cut; usage at the end of a long stream is still read', async () => {
    const long = Array.from({ length: 400 }, (_, n) => sseChunk(n));
    const end = `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: {}, usage: { output_tokens: 77 } })}\n\n`;
    upstream = await startUpstream(() => ({ type: 'text/event-stream', chunks: [...long, end] }));
    harness = await startProxy({ upstream: upstream.url, bodyCapBytes: 4096 });
    const answer = await harness.post(
      '/v1/messages',
      { model: 'm', stream: true, messages: [{ role: 'user', content: 'x'.repeat(10_000) }] },
      { 'x-api-key': harness.proxy.agentKey },
    );
    expect(answer.text).toBe([...long, end].join(''));
    const [request] = harness.seen.requests;
    const [response] = harness.seen.responses;
    expect(request!.cutBytes).toBe(request!.bytes - 4096);
    expect(response!.cutBytes).toBe(Buffer.byteLength(answer.text) - 4096);
    expect(response!.usage.completionTokens).toBe(77);
    await harness.proxy.written();
    const written = await readFile(response!.bodyFile, 'utf8');
    expect(written.startsWith(answer.text.slice(0, 4000))).toBe(true);
    expect(written).toMatch(
      new RegExp(`\\[hangbench: body cut: ${response!.cutBytes} of ${response!.bytes} bytes not written\\]\\n$`),
    );
  });

  it('a body folder that refuses writes: the fault is reported (the results-fault path) and the call still answered', async () => {
    upstream = await startUpstream(() => ({ chunks: ['{"output":[],"usage":{"input_tokens":5,"output_tokens":1}}'] }));
    harness = await startProxy({ upstream: upstream.url });
    // the folder gone (as a removed or unmounted results folder): every write fails with ENOENT
    await rm(path.join(harness.dir, 'bodies'), { recursive: true, force: true });
    const answer = await harness.post('/v1/responses', { model: 'm', input: 'x' });
    expect(answer.status).toBe(200);
    await harness.proxy.written();
    expect(harness.seen.faults.map((error) => error.code)).toEqual(['ENOENT', 'ENOENT']);
    expect(harness.seen.responses[0]).toMatchObject({ status: 200, usage: { promptTokens: 5 } });
    await mkdir(path.join(harness.dir, 'bodies'));
    await chmod(path.join(harness.dir, 'bodies'), 0o755);
  });
});

/**
 * The same two stream faults for the other APIs the proxy speaks, each error checked against that API's own shape
 * (as its SDK parses a stream): chat completions an unnamed `data:` line with `error`; the Responses API a named
 * `error` event with type, code, message and param; Gemini a `data:` line with Google's `{ error: { code, message,
 * status } }`. An error in another API's shape would not be read as an error by the CLI.
 */
const STREAM_APIS = [
  {
    api: 'chat completions',
    route: '/v1/chat/completions',
    headers: (key: string) => ({ authorization: `Bearer ${key}` }),
    body: { model: 'm', stream: true, messages: [] },
    chunk: (n: number) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: `word${n} ` }, finish_reason: null }] })}\n\n`,
    event: undefined,
    error: (message: RegExp) => ({
      error: expect.objectContaining({ message: expect.stringMatching(message), type: expect.any(String) }),
    }),
  },
  {
    api: 'Responses',
    route: '/v1/responses',
    headers: (key: string) => ({ authorization: `Bearer ${key}` }),
    body: { model: 'm', stream: true, input: 'x' },
    chunk: (n: number) =>
      `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: 'msg_1', delta: `word${n} ` })}\n\n`,
    event: 'error',
    error: (message: RegExp) => ({
      type: 'error',
      code: expect.any(String),
      message: expect.stringMatching(message),
      param: null,
    }),
  },
  {
    api: 'Gemini',
    route: '/v1beta/models/m:streamGenerateContent?alt=sse',
    headers: (key: string) => ({ 'x-goog-api-key': key }),
    body: { contents: [] },
    chunk: (n: number) =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: `word${n} ` }] }, index: 0 }] })}\r\n\r\n`,
    event: undefined,
    error: (message: RegExp) => ({
      error: { code: expect.any(Number), message: expect.stringMatching(message), status: expect.any(String) },
    }),
  },
] as const;

/** The stream's last event: its `event:` name (if any) and its data as JSON. */
function lastEvent(text: string): { event: string | undefined; data: unknown } {
  const blocks = text.split(/\r?\n\r?\n/).filter((block) => block.trim() !== '');
  const last = blocks.at(-1) ?? '';
  const event = /^event: (.*)$/m.exec(last)?.[1];
  const data = /^data: (.*)$/m.exec(last)?.[1];
  return { event, data: data === undefined ? undefined : JSON.parse(data) };
}

describe.each(STREAM_APIS)('the model proxy under stream faults: $api', (api) => {
  it('an endpoint that resets inside a stream: the agent gets what came, then an error in its API’s shape; recorded as broken', async () => {
    upstream = await startUpstream(() => ({
      type: 'text/event-stream',
      chunks: [api.chunk(0), api.chunk(1)],
      reset: true,
    }));
    harness = await startProxy({ upstream: upstream.url });
    const answer = await harness.post(api.route, api.body, api.headers(harness.proxy.agentKey));
    expect(answer.status).toBe(200);
    // what the endpoint sent before it broke off reaches the agent unchanged, the error after it
    expect(answer.text.startsWith(api.chunk(0) + api.chunk(1))).toBe(true);
    const last = lastEvent(answer.text.slice((api.chunk(0) + api.chunk(1)).length));
    expect(last.event).toBe(api.event);
    expect(last.data).toEqual(api.error(/^hangbench model proxy: the stream broke off after \d+ bytes/));
    expect(upstream.calls).toHaveLength(1);
    expect(harness.seen.responses).toHaveLength(1);
    expect(harness.seen.responses[0]).toMatchObject({ status: 200, broken: expect.stringMatching(/broke off/) });
  });

  it('an agent that goes away mid-stream: the upstream stream is ended, the call recorded as broken, the proxy goes on', async () => {
    let release: () => void = () => undefined;
    const upstreamClosed = new Promise<void>((resolve) => (release = resolve));
    let served = 0;
    const server = http.createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // the first call streams until the agent goes; the next is answered whole
      if ((served += 1) > 1) return void response.end(api.chunk(2));
      response.write(api.chunk(0));
      const timer = setInterval(() => response.write(api.chunk(1)), 20);
      response.on('close', () => {
        clearInterval(timer);
        release();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      harness = await startProxy({ upstream: `http://127.0.0.1:${port}/v1` });
      const first = await readFirstThenAbort(
        path.join(harness.dir, 'model.sock'),
        api.route,
        api.headers(harness.proxy.agentKey),
        api.body,
      );
      expect(first).toContain('word0');
      await upstreamClosed;
      await expect.poll(() => harness!.seen.responses.length).toBe(1);
      expect(harness.seen.responses[0]!.broken).toMatch(/agent closed the connection/);
      const next = await harness.post(api.route, api.body, api.headers(harness.proxy.agentKey));
      expect([next.status, next.text]).toEqual([200, api.chunk(2)]);
      expect(harness.seen.responses[1]).not.toHaveProperty('broken');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
