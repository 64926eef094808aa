import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ModelProxy, type ModelProxyEvents, type ModelProxyOptions } from '../../../src/agents/cli/model-proxy.js';

/** What a loopback upstream received. */
export interface UpstreamCall {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** How the upstream answers one call: a status, a content type and the body as chunks; `reset` destroys the socket after them. */
export interface UpstreamAnswer {
  readonly status?: number;
  readonly type?: string;
  readonly chunks: readonly string[];
  readonly reset?: boolean;
  /** never answer (the proxy's idle timeout). */
  readonly silent?: boolean;
}

export interface Upstream {
  readonly url: string;
  readonly calls: UpstreamCall[];
  close(): Promise<void>;
}

/** A loopback endpoint: each call is answered by `answer(call)`. */
export async function startUpstream(answer: (call: UpstreamCall) => UpstreamAnswer): Promise<Upstream> {
  const calls: UpstreamCall[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const call = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      calls.push(call);
      const reply = answer(call);
      if (reply.silent) return;
      response.writeHead(reply.status ?? 200, { 'content-type': reply.type ?? 'application/json' });
      if (reply.reset) {
        for (const chunk of reply.chunks) response.write(chunk);
        setImmediate(() => response.socket?.destroy());
        return;
      }
      response.end(reply.chunks.join(''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export interface Seen {
  requests: Parameters<ModelProxyEvents['request']>[0][];
  responses: Parameters<ModelProxyEvents['response']>[0][];
  over: number[];
  faults: NodeJS.ErrnoException[];
}

export interface ProxyHarness {
  readonly dir: string;
  readonly proxy: ModelProxy;
  readonly seen: Seen;
  post(
    route: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; type: string; text: string }>;
  close(): Promise<void>;
}

/** The real proxy on its Unix socket in a temp folder, its events collected. */
export async function startProxy(
  options: Partial<ModelProxyOptions> & { upstream: string | null },
  events: Partial<ModelProxyEvents> = {},
): Promise<ProxyHarness> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-proxy-'));
  const seen: Seen = { requests: [], responses: [], over: [], faults: [] };
  const socketPath = path.join(dir, 'model.sock');
  const proxy = await ModelProxy.start({
    socketPath,
    apiKey: 'sk-real',
    tokenBudget: 1_000_000,
    bodyDir: path.join(dir, 'bodies'),
    ...options,
    events: {
      request: (call) => seen.requests.push(call),
      response: (call) => seen.responses.push(call),
      overBudget: (value) => seen.over.push(value),
      fault: (error) => seen.faults.push(error),
      ...events,
    },
  });
  const post = (
    route: string,
    body: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${proxy.agentKey}` },
  ) =>
    new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
      const request = http.request(
        { socketPath, path: route, method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type'] ?? ''), text }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  return {
    dir,
    proxy,
    seen,
    post,
    close: async () => {
      await proxy.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The JSON of each `data:` line of an SSE text. */
export function sseData(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as unknown);
}
