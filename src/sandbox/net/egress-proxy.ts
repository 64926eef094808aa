import { mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { withDeadline } from '../../types/deadline.js';

/** How long close() waits for the server's last connection to end before it lets go (sockets are destroyed first). */
const CLOSE_MS = 2_000;

/** One request through the egress proxy: what the trace records (never a body). */
export interface EgressRecord {
  readonly host: string;
  readonly port: number;
  /** CONNECT for a tunnel (HTTPS), else the HTTP method. */
  readonly method: string;
  /** 200 for an opened tunnel, 403 refused, 502 unreachable, else the upstream's status. */
  readonly status: number;
  readonly allowed: boolean;
  /** bytes both ways (a tunnel's encrypted bytes; a plain request's response body). */
  readonly bytes: number;
  readonly durationMs: number;
}

export interface EgressProxyOptions {
  /** hosts (exact names, case-insensitive) a sandboxed program may reach; every other request is refused with 403. */
  readonly allow: readonly string[];
  readonly onRequest: (record: EgressRecord) => void;
  /** where upstream connections go instead of the named host (tests: a loopback server standing in for the world). */
  readonly resolve?: (host: string, port: number) => { host: string; port: number };
}

export interface EgressProxy {
  /** the Unix socket it listens on: bind it into a sandbox with a Bridge. */
  readonly socketPath: string;
  /** Ends every tunnel and request and stops listening; resolves to what it gave up waiting for, or null. */
  close(): Promise<string | null>;
}

/** What the plain and the tunnel handler share: where a request may go, how it is recorded, what close() must end. */
interface ProxyContext {
  readonly allowed: ReadonlySet<string>;
  readonly upstream: (host: string, port: number) => { host: string; port: number };
  readonly record: (start: number, fields: Omit<EgressRecord, 'durationMs'>) => void;
  readonly open: Set<Duplex>;
}

/**
 * A host-side HTTP(S) forward proxy on a Unix socket (the pattern of Anthropic's sandbox-runtime and Codex's network
 * proxy): CONNECT host:port tunnels for HTTPS, absolute-URI requests for plain HTTP, only to allowed hosts.
 */
export function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const allowed = new Set(options.allow.map((host) => host.toLowerCase()));
  const upstream = options.resolve ?? ((host: string, port: number) => ({ host, port }));
  const dir = mkdtempSync(join(tmpdir(), 'hangbench-egress-'));
  const socketPath = join(dir, 'egress.sock');
  const open = new Set<Duplex>();
  const record = (start: number, fields: Omit<EgressRecord, 'durationMs'>): void =>
    options.onRequest({ ...fields, durationMs: Math.round((performance.now() - start) * 10) / 10 });
  const context: ProxyContext = { allowed, upstream, record, open };

  const server = createServer((request: IncomingMessage, response: ServerResponse) =>
    forwardRequest(context, request, response),
  );
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) =>
    openTunnel(context, request, client, head),
  );
  return listen(server, socketPath, () => closeProxy(server, socketPath, dir, open));
}

/** Plain HTTP: an absolute-URI request to an allowed host is forwarded and its response piped back; else 400 or 403. */
function forwardRequest(context: ProxyContext, request: IncomingMessage, response: ServerResponse): void {
  const { allowed, upstream, record } = context;
  const start = performance.now();
  let target: URL;
  try {
    target = new URL(request.url ?? '');
  } catch {
    response.writeHead(400).end('hangbench egress proxy: send an absolute URL (http://host/path)\n');
    return;
  }
  const host = target.hostname.toLowerCase();
  const port = Number(target.port || 80);
  const method = request.method ?? 'GET';
  if (target.protocol !== 'http:' || !allowed.has(host)) {
    response.writeHead(403).end(`hangbench egress proxy: ${host} is not an allowed host\n`);
    record(start, { host, port, method, status: 403, allowed: false, bytes: 0 });
    return;
  }
  const to = upstream(host, port);
  let bytes = 0;
  const forwarded = httpRequest(
    { host: to.host, port: to.port, method, path: `${target.pathname}${target.search}`, headers: request.headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => (bytes += chunk.length));
      answer.pipe(response);
      answer.on('end', () =>
        record(start, { host, port, method, status: answer.statusCode ?? 502, allowed: true, bytes }),
      );
    },
  );
  forwarded.on('error', () => {
    if (!response.headersSent) response.writeHead(502).end(`hangbench egress proxy: ${host} unreachable\n`);
    record(start, { host, port, method, status: 502, allowed: true, bytes });
  });
  request.pipe(forwarded);
}

/** CONNECT: a tunnel to an allowed host (200 once the upstream answers, 502 if it cannot be reached), else 403. */
function openTunnel(context: ProxyContext, request: IncomingMessage, client: Duplex, head: Buffer): void {
  const { allowed, upstream, record, open } = context;
  const start = performance.now();
  open.add(client);
  client.on('close', () => open.delete(client));
  client.on('error', () => undefined);
  const [rawHost = '', rawPort = '443'] = (request.url ?? '').split(/:(?=\d+$)/);
  const host = rawHost.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(rawPort);
  if (!allowed.has(host)) {
    client.end(`HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n`);
    record(start, { host, port, method: 'CONNECT', status: 403, allowed: false, bytes: 0 });
    return;
  }
  const to = upstream(host, port);
  const remote: Socket = connect(to.port, to.host);
  // Either end's close ends the other: a tunnel the agent dropped (or close() destroyed) must not hold the upstream.
  open.add(remote);
  client.on('close', () => remote.destroy());
  let bytes = 0;
  let opened = false;
  remote.on('connect', () => {
    opened = true;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) remote.write(head);
    client.on('data', (chunk: Buffer) => (bytes += chunk.length));
    remote.on('data', (chunk: Buffer) => (bytes += chunk.length));
    client.pipe(remote);
    remote.pipe(client);
  });
  remote.on('error', () => {
    if (!opened) client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
    else client.destroy();
  });
  remote.on('close', () => {
    open.delete(remote);
    client.destroy();
    record(start, { host, port, method: 'CONNECT', status: opened ? 200 : 502, allowed: true, bytes });
  });
}

/** Resolves to the proxy once the server listens on `socketPath`; rejects with the server's error if it cannot. */
function listen(server: Server, socketPath: string, close: () => Promise<string | null>): Promise<EgressProxy> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve({ socketPath, close }));
  });
}

/** Destroys every open socket, waits (bounded) for the server to close and removes its folder: what it gave up on, or null. */
async function closeProxy(
  server: Server,
  socketPath: string,
  dir: string,
  open: ReadonlySet<Duplex>,
): Promise<string | null> {
  for (const socket of open) socket.destroy();
  server.closeAllConnections();
  const closed = await withDeadline(new Promise<void>((done) => server.close(() => done())), {
    what: `the egress proxy on ${socketPath} to close its last connection`,
    ms: CLOSE_MS,
    onExpire: () => server.closeAllConnections(),
  });
  rmSync(dir, { recursive: true, force: true });
  return closed.state === 'expired' ? `gave up after ${closed.waitedMs} ms waiting for ${closed.what}` : null;
}
