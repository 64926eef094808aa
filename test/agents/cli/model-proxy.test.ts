import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelProxy, type ModelProxyEvents } from '../../../src/agents/cli/model-proxy.js';
import { startScriptedModel, type ScriptedModel } from '../../support/scripted-model-server.js';

/** The model proxy on its Unix socket in front of a scripted endpoint: chat and Responses, streamed or not, the budget. */

let dir: string;
let model: ScriptedModel | null = null;
let proxy: ModelProxy | null = null;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hangbench-proxy-'));
});
afterEach(async () => {
  await proxy?.close();
  await model?.close();
  proxy = null;
  model = null;
  await rm(dir, { recursive: true, force: true });
});

interface Seen {
  requests: Parameters<ModelProxyEvents['request']>[0][];
  responses: Parameters<ModelProxyEvents['response']>[0][];
  over: number[];
}

async function start(options: { usage?: boolean; budget?: number } = {}): Promise<Seen> {
  model = await startScriptedModel(
    [() => ({ text: 'first answer' }), () => ({ call: 'bash', args: { command: 'ls' } }), () => ({ text: 'third' })],
    { usage: options.usage ?? true },
  );
  const seen: Seen = { requests: [], responses: [], over: [] };
  proxy = await ModelProxy.start({
    socketPath: path.join(dir, 'model.sock'),
    upstream: model.url,
    apiKey: 'sk-real',
    tokenBudget: options.budget ?? 1_000_000,
    bodyDir: path.join(dir, 'bodies'),
    events: {
      request: (call) => seen.requests.push(call),
      response: (call) => seen.responses.push(call),
      overBudget: (value) => seen.over.push(value),
    },
  });
  return seen;
}

function post(route: string, body: object, key = proxy!.agentKey): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        socketPath: path.join(dir, 'model.sock'),
        path: route,
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe('the model proxy', () => {
  it('forwards with the real key, streams Responses and chat SSE through, and takes tokens from usage', async () => {
    const seen = await start();
    const responses = await post('/v1/responses', { model: 'm', stream: true, input: 'hi' });
    expect(responses.text).toContain('event: response.completed');
    const chat = await post('/v1/chat/completions', {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(chat.text).toContain('"tool_calls"');
    expect(chat.text).toContain('data: [DONE]');
    expect(model!.calls.map((call) => call.authorization)).toEqual(['Bearer sk-real', 'Bearer sk-real']);
    expect(seen.requests.map((request) => [request.api, request.stream, request.model])).toEqual([
      ['responses', true, 'm'],
      ['chat', true, 'm'],
    ]);
    expect(
      seen.responses.map((response) => [
        response.status,
        response.tokensFrom,
        response.usage.promptTokens,
        response.usage.completionTokens,
      ]),
    ).toEqual([
      [200, 'usage', 1000, 20],
      [200, 'usage', 1000, 20],
    ]);
    expect(proxy!.tokens).toBe(2040);
    await proxy!.written();
    expect(await readFile(seen.responses[0]!.bodyFile, 'utf8')).toBe(responses.text);
  });

  it('counts tokens with the tokenizer when the endpoint sends no usage', async () => {
    const seen = await start({ usage: false });
    await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'count me please' }] });
    const [response] = seen.responses;
    expect(response?.tokensFrom).toBe('counted');
    expect(response?.usage.promptTokens).toBeGreaterThan(5);
    expect(response?.usage.completionTokens).toBe(2);
  });

  it("refuses a key that is not the attempt's, without calling the endpoint", async () => {
    const seen = await start();
    const answer = await post('/v1/responses', { model: 'm', input: 'hi' }, 'sk-real');
    expect(answer.status).toBe(401);
    expect(model!.calls).toHaveLength(0);
    expect(seen.responses[0]?.refused).toMatch(/unknown key/);
  });

  it('past the token budget answers with an error of its own and reports it once', async () => {
    const seen = await start({ budget: 1500 });
    expect((await post('/v1/responses', { model: 'm', input: 'one' })).status).toBe(200);
    expect((await post('/v1/responses', { model: 'm', input: 'two' })).status).toBe(200);
    const refused = await post('/v1/responses', { model: 'm', input: 'three' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { type: 'insufficient_quota', code: 'token_budget' } });
    await post('/v1/responses', { model: 'm', input: 'four' });
    expect(model!.calls).toHaveLength(2);
    expect(seen.over).toEqual([2040]);
  });
});
