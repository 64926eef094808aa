// The model proxy's cost per call against a direct connection, and the shell shim's start-up per command, side by side.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ModelProxy } from '../../dist/agents/cli/model-proxy.js';
import { INSIDE, shellShim } from '../../dist/agents/cli/shell-shim.js';
import { ShimWatcher } from '../../dist/agents/cli/shim-watcher.js';
import { sized } from '../lib/smoke.mjs';
import { quantile } from '../lib/stats.mjs';

const percentile = (values, p) => quantile(values, p / 100);

const PROMPT = 'x'.repeat(4000);
const sse = (data, event) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
const words = Array.from({ length: 20 }, (_, i) => `word${i} `);

/**
 * Each API a CLI speaks: the path it calls (JSON and streamed), its key header, its request body, and a realistic
 * answer from the endpoint — a JSON body, or 20 text deltas plus the events around them in the API's own SSE.
 */
const APIS = {
  messages: {
    path: () => '/v1/messages?beta=true',
    headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
    body: (stream) => ({ model: 'bench', max_tokens: 100, stream, messages: [{ role: 'user', content: PROMPT }] }),
    json: {
      id: 'msg',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: words.join('') }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1000, output_tokens: 20 },
    },
    sse: [
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg',
            type: 'message',
            role: 'assistant',
            content: [],
            usage: { input_tokens: 1000, output_tokens: 1 },
          },
        },
        'message_start',
      ),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      ...words.map((text) =>
        sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta'),
      ),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 20 } }, 'message_delta'),
      sse({ type: 'message_stop' }, 'message_stop'),
    ],
  },
  gemini: {
    path: (stream) => `/v1beta/models/bench:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    headers: (key) => ({ 'x-goog-api-key': key }),
    body: () => ({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
    json: {
      candidates: [{ content: { role: 'model', parts: [{ text: words.join('') }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: 20 },
    },
    sse: words.map(
      (text, i) =>
        `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(i === 19 ? { finishReason: 'STOP' } : {}) }], usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: i + 1 } })}\r\n\r\n`,
    ),
  },
  chat: {
    path: () => '/v1/chat/completions',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    body: (stream) => ({ model: 'bench', stream, messages: [{ role: 'user', content: PROMPT }] }),
    json: {
      id: 'c',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: words.join('') }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1000, completion_tokens: 20 },
    },
    sse: [
      ...words.map((content) => sse({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })),
      sse({
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1000, completion_tokens: 20 },
      }),
      'data: [DONE]\n\n',
    ],
  },
  responses: {
    path: () => '/v1/responses',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    body: (stream) => ({ model: 'bench', stream, input: [{ role: 'user', content: PROMPT }] }),
    json: { output: [], usage: { input_tokens: 1000, output_tokens: 20 } },
    sse: [
      ...words.map((delta) => sse({ type: 'response.output_text.delta', delta }, 'response.output_text.delta')),
      sse(
        { type: 'response.completed', response: { usage: { input_tokens: 1000, output_tokens: 20 } } },
        'response.completed',
      ),
    ],
  },
};
const API_NAMES = /** @type {Array<keyof typeof APIS>} */ (Object.keys(APIS));

/** An endpoint that answers at once, in the API the path names, JSON or SSE as the call asked. */
function upstream() {
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const url = request.url ?? '';
      const api = url.includes('/models/')
        ? APIS.gemini
        : url.includes('/messages')
          ? APIS.messages
          : url.includes('/chat/')
            ? APIS.chat
            : APIS.responses;
      const stream = url.includes('alt=sse') || JSON.parse(text || '{}').stream === true;
      if (stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const chunk of api.sse) response.write(chunk);
        response.end();
      } else {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(api.json));
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function call(options, route, headers, body) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      { ...options, path: route, method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(performance.now() - started));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const run = (argv, env) =>
  new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { env, stdio: 'ignore' });
    child.on('close', () => resolve(performance.now() - started));
  });

export default async function proxy() {
  const trials = Number(process.env.BENCH_TRIALS ?? sized(30, 3)) * 5;
  const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-bench-proxy-'));
  const server = await upstream();
  const port = server.address().port;
  const model = await ModelProxy.start({
    socketPath: path.join(dir, 'model.sock'),
    upstream: `http://127.0.0.1:${port}/v1`,
    apiKey: 'real',
    tokenBudget: Number.MAX_SAFE_INTEGER,
    bodyDir: path.join(dir, 'bodies'),
    events: { request: () => {}, response: () => {}, overBudget: () => {} },
  });
  const direct = { host: '127.0.0.1', port, agent: new http.Agent({ keepAlive: true }) };
  const proxied = { socketPath: path.join(dir, 'model.sock'), agent: new http.Agent({ keepAlive: true }) };
  /** @type {Record<string, { direct: number[], proxy: number[] }>} */
  const times = {};
  for (const api of API_NAMES) for (const kind of ['json', 'sse']) times[`${api} ${kind}`] = { direct: [], proxy: [] };
  for (let i = 0; i < trials; i++) {
    for (const api of API_NAMES) {
      for (const kind of ['json', 'sse']) {
        const spec = APIS[api];
        const stream = kind === 'sse';
        const body = JSON.stringify(spec.body(stream));
        // Interleaved, order alternating, so machine noise favours neither.
        const order = i % 2 === 0 ? ['direct', 'proxy'] : ['proxy', 'direct'];
        for (const via of order) {
          const headers = spec.headers(via === 'direct' ? 'real' : model.agentKey);
          times[`${api} ${kind}`][via].push(
            await call(via === 'direct' ? direct : proxied, spec.path(stream), headers, body),
          );
        }
      }
    }
  }
  await model.close();
  server.close();

  // The shim against plain bash: `bash -c true`, the harness answering the shim's announcement as in an attempt.
  const shimDir = path.join(dir, 'shim');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(shimDir);
  const shim = path.join(dir, 'bash-shim');
  await writeFile(shim, shellShim().replaceAll(INSIDE.realBash, '/usr/bin/bash'), { mode: 0o755 });
  let next = 1;
  const watcher = new ShimWatcher({
    dir: shimDir,
    insideDir: shimDir,
    hostPid: (pid) => pid,
    nextId: () => next++,
    onStart: () => {},
  });
  /** @type {{ bash: number[], shim: number[] }} */
  const shimTimes = { bash: [], shim: [] };
  for (let i = 0; i < trials / 5; i++) {
    shimTimes.bash.push(await run(['/usr/bin/bash', '-c', 'true'], { PATH: process.env.PATH }));
    shimTimes.shim.push(await run([shim, '-c', 'true'], { PATH: process.env.PATH, HANGBENCH_OBSERVE: shimDir }));
  }
  watcher.stop();
  await rm(dir, { recursive: true, force: true });

  const ms = (values) => `${percentile(values, 50).toFixed(2)} / ${percentile(values, 99).toFixed(2)} ms`;
  const added = (pair) => percentile(pair.proxy, 50) - percentile(pair.direct, 50);
  const ratio = (pair) => percentile(pair.proxy, 50) / percentile(pair.direct, 50);
  const table = [
    '| one call | direct p50 / p99 | through the proxy p50 / p99 | added p50 | ratio p50 |',
    '|---|---|---|---|---|',
    ...Object.entries(times).map(
      ([name, pair]) =>
        `| ${name.endsWith('sse') ? `${name.split(' ')[0]} SSE` : `${name.split(' ')[0]} JSON`} | ${ms(pair.direct)} | ${ms(pair.proxy)} | ${added(pair).toFixed(2)} ms | ${ratio(pair).toFixed(2)}× |`,
    ),
    `| a command: \`bash -c true\` | ${ms(shimTimes.bash)} | through the shim: ${ms(shimTimes.shim)} | ${(percentile(shimTimes.shim, 50) - percentile(shimTimes.bash, 50)).toFixed(2)} ms | ${(percentile(shimTimes.shim, 50) / percentile(shimTimes.bash, 50)).toFixed(2)}× |`,
  ].join('\n');
  const worst = Math.max(...Object.values(times).map(added));
  return {
    title: `Model proxy per API and shell shim (${trials} calls each way per API and kind, ${trials / 5} commands each way, interleaved)`,
    table,
    notes: [
      "The proxy writes both bodies to disk and reads usage from the answer in each API's own fields; the upstream is on loopback and answers at once (a 4 KB prompt; 20 text deltas when streamed). The shim announces the command and waits for the harness to answer before it runs.",
    ],
    data: { times, shimTimes },
    goals: [
      { figure: 'proxy: ms added per call, worst API and kind (p50)', value: worst, goal: '<= 2', met: worst <= 2 },
    ],
  };
}
