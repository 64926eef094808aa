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

const BODY = JSON.stringify({ model: 'bench', input: [{ role: 'user', content: 'x'.repeat(4000) }] });
const USAGE = { input_tokens: 1000, output_tokens: 20 };

/** An endpoint that answers at once: a JSON body, or 20 SSE events of the Responses API. */
function upstream() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if ((request.url ?? '').includes('stream')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let i = 0; i < 20; i++) response.write(`event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', delta: `word${i} ` })}\n\n`);
        response.end(`event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { usage: USAGE } })}\n\n`);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ output: [], usage: USAGE }));
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function call(options, path) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request({ ...options, path, method: 'POST', headers: { 'content-type': 'application/json', authorization: options.auth } }, (response) => {
      response.resume();
      response.on('end', () => resolve(performance.now() - started));
    });
    request.on('error', reject);
    request.end(BODY);
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
  const direct = { host: '127.0.0.1', port, auth: 'Bearer real', agent: new http.Agent({ keepAlive: true }) };
  const proxied = { socketPath: path.join(dir, 'model.sock'), auth: `Bearer ${model.agentKey}`, agent: new http.Agent({ keepAlive: true }) };
  const times = { direct: { json: [], stream: [] }, proxy: { json: [], stream: [] } };
  for (let i = 0; i < trials; i++) {
    for (const kind of ['json', 'stream']) {
      const route = kind === 'stream' ? '/v1/responses?stream' : '/v1/responses';
      // Interleaved, order alternating, so machine noise favours neither.
      const order = i % 2 === 0 ? ['direct', 'proxy'] : ['proxy', 'direct'];
      for (const via of order) times[via][kind].push(await call(via === 'direct' ? direct : proxied, route));
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
  const watcher = new ShimWatcher({ dir: shimDir, insideDir: shimDir, hostPid: (pid) => pid, nextId: () => next++, onStart: () => {} });
  /** @type {{ bash: number[], shim: number[] }} */
  const shimTimes = { bash: [], shim: [] };
  for (let i = 0; i < trials / 5; i++) {
    shimTimes.bash.push(await run(['/usr/bin/bash', '-c', 'true'], { PATH: process.env.PATH }));
    shimTimes.shim.push(await run([shim, '-c', 'true'], { PATH: process.env.PATH, HANGBENCH_OBSERVE: shimDir }));
  }
  watcher.stop();
  await rm(dir, { recursive: true, force: true });

  const ms = (values) => `${percentile(values, 50).toFixed(2)} / ${percentile(values, 99).toFixed(2)} ms`;
  const table = [
    '| one call | direct p50 / p99 | through the proxy p50 / p99 | added p50 |',
    '|---|---|---|---|',
    ...['json', 'stream'].map((kind) => `| ${kind === 'json' ? 'JSON response' : 'SSE stream, 21 events'} | ${ms(times.direct[kind])} | ${ms(times.proxy[kind])} | ${(percentile(times.proxy[kind], 50) - percentile(times.direct[kind], 50)).toFixed(2)} ms |`),
    `| a command: \`bash -c true\` | ${ms(shimTimes.bash)} | through the shim: ${ms(shimTimes.shim)} | ${(percentile(shimTimes.shim, 50) - percentile(shimTimes.bash, 50)).toFixed(2)} ms |`,
  ].join('\n');
  const added = percentile(times.proxy.stream, 50) - percentile(times.direct.stream, 50);
  return {
    title: `Model proxy and shell shim (${trials} calls each way, ${trials / 5} commands each way, interleaved)`,
    table,
    notes: ['The proxy records both bodies to disk and counts usage from the stream; the shim announces the command and waits for the harness to answer before it runs.'],
    data: { times, shimTimes },
    goals: [{ figure: 'proxy: ms added per streamed call (p50)', value: added, goal: '< 5', met: added < 5 }],
  };
}
