// The sandbox's own cost side by side in one run: root jail, non-root jail (the same bench as the non-root user, when
// run as root and that user exists), host-user; and the egress proxy's overhead per request on loopback.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBridge, startEgressProxy } from '../../dist/sandbox/index.js';
import { sized } from '../lib/smoke.mjs';
import { sandboxIsolationBench } from '../sandbox-isolation.mjs';

const ms = (value) => (value === undefined ? '–' : `${value.toFixed(1)} ms`);
const NONROOT_USER = process.env.HANGBENCH_NONROOT_USER ?? 'hbuser';
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};

/** The same measurement as the non-root user: its bubblewrap column is the non-root jail. Null when that is not possible. */
function nonRootBench(trials) {
  if (process.getuid?.() !== 0) return Promise.resolve(null);
  const script = fileURLToPath(new URL('../sandbox-isolation.mjs', import.meta.url));
  const tmp = mkdtempSync(path.join(tmpdir(), 'hangbench-bench-nonroot-'));
  return new Promise((resolve) => {
    execFile(
      'sh',
      [
        '-c',
        `chown "$1" "$2" && exec runuser -u "$1" -- env TMPDIR="$2" BENCH_TRIALS="$3" node "$4"`,
        'bench',
        NONROOT_USER,
        tmp,
        String(trials),
        script,
      ],
      { maxBuffer: 1 << 24 },
      (error, stdout) => {
        rmSync(tmp, { recursive: true, force: true });
        if (error) return resolve(null);
        try {
          resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
        } catch {
          resolve(null);
        }
      },
    );
  });
}

function get(options) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(options, (response) => {
      response.resume();
      response.on('end', () => resolve(performance.now() - started));
    });
    req.on('error', reject);
    req.end();
  });
}

/** GET of a loopback server directly, and through bridge → egress proxy (a Unix socket) → server, interleaved. */
async function proxyOverhead(trials) {
  const server = createServer((_request, response) => response.end('ok\n'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  const proxy = await startEgressProxy({ allow: ['127.0.0.1'], onRequest: () => undefined });
  const bridge = await openBridge(null, { socketPath: proxy.socketPath });
  const direct = [];
  const proxied = [];
  for (let trial = 0; trial < trials; trial += 1) {
    direct.push(await get({ host: '127.0.0.1', port, path: '/', agent: false }));
    proxied.push(
      await get({
        host: '127.0.0.1',
        port: bridge.port,
        path: `http://127.0.0.1:${port}/`,
        headers: { host: `127.0.0.1:${port}` },
        agent: false,
      }),
    );
  }
  await bridge.close();
  await proxy.close();
  server.close();
  const figures = (values) => ({ p50: quantile(values, 0.5), p99: quantile(values, 0.99) });
  return { direct: figures(direct), proxied: figures(proxied) };
}

export default async function isolation() {
  const trials = Number(process.env.BENCH_TRIALS ?? sized(30, 3));
  const data = await sandboxIsolationBench({ trials });
  const nonRoot = await nonRootBench(trials);
  const proxy = await proxyOverhead(trials * 10);
  const root = process.getuid?.() === 0;
  const columns = [
    [root ? 'root jail' : 'non-root jail', data, 'bubblewrap'],
    ...(nonRoot ? [['non-root jail', nonRoot, 'bubblewrap']] : []),
    ['host-user', data, 'host-user'],
  ];
  const rows = [
    ['one command: spawn → exit of `true`', 'startup'],
    ['sandbox start (once per attempt, + once for verify)', 'sandboxCreate'],
    ['kill, SIGKILL first: decision → last process gone', 'killSigkill'],
  ];
  const cell = (source, key, column) => ['p50', 'p99'].map((p) => ms(source[key]?.[column]?.[p])).join(' / ');
  const table = [
    `| what | ${columns.map(([label]) => `${label} p50 / p99`).join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
    ...rows.map(
      ([label, key]) => `| ${label} | ${columns.map(([, source, column]) => cell(source, key, column)).join(' | ')} |`,
    ),
    `| HTTP GET on loopback: direct / via bridge + egress proxy | ${ms(proxy.direct.p50)} / ${ms(proxy.direct.p99)} → ${ms(proxy.proxied.p50)} / ${ms(proxy.proxied.p99)} |${columns
      .slice(1)
      .map(() => ' |')
      .join('')}`,
  ].join('\n');
  const goals = [];
  const rootStart = root ? data.startup.bubblewrap?.p50 : undefined;
  const nonRootStart = nonRoot?.startup.bubblewrap?.p50 ?? (root ? undefined : data.startup.bubblewrap?.p50);
  if (rootStart !== undefined && nonRootStart !== undefined)
    goals.push({
      figure: 'non-root jail start-up minus root jail (p50 ms)',
      value: nonRootStart - rootStart,
      goal: '≤ 5',
      met: nonRootStart - rootStart <= 5,
    });
  const nonRootKill = nonRoot?.killSigkill.bubblewrap?.p99 ?? (root ? undefined : data.killSigkill.bubblewrap?.p99);
  if (nonRootKill !== undefined)
    goals.push({
      figure: 'non-root jail kill p99 ms (no cgroups)',
      value: nonRootKill,
      goal: '≤ 15',
      met: nonRootKill <= 15,
    });
  if (data.killSigkill.bubblewrap)
    goals.push({
      figure: `${root ? 'root' : 'non-root'} jail kill p99 ms (SIGKILL first)`,
      value: data.killSigkill.bubblewrap.p99,
      goal: '≤ 15',
      met: data.killSigkill.bubblewrap.p99 <= 15,
    });
  const overhead = proxy.proxied.p50 - proxy.direct.p50;
  goals.push({ figure: 'egress proxy overhead per request, p50 ms', value: overhead, goal: '≤ 2', met: overhead <= 2 });
  return {
    title: `Isolation cost (${trials} trials each, interleaved; proxy ${trials * 10} requests)`,
    table,
    notes: [
      data.startup.bubblewrap
        ? ''
        : 'bubblewrap is not available on this host: only the host-user column was measured.',
      root && !nonRoot
        ? `no non-root column: run as root with a user ${NONROOT_USER} (useradd -m ${NONROOT_USER}) to measure the non-root jail side by side`
        : '',
    ].filter(Boolean),
    data: { ...data, nonRoot, proxy },
    goals,
  };
}
