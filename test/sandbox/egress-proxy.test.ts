import { createServer as createHttpServer, request, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startEgressProxy, type EgressProxy, type EgressRecord } from '../../src/sandbox/net/egress-proxy.js';

/**
 * The egress proxy as agents use it, straight on its Unix socket: `CONNECT host:443` (what every HTTPS client sends
 * through HTTPS_PROXY), absolute-URI requests for plain HTTP. "The world" is a loopback server the proxy's resolve
 * sends every allowed host to: a TLS-less echo for tunnels (the proxy tunnels bytes, it never sees TLS), an HTTP server.
 */
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function listening<T extends Server | HttpServer>(server: T): Promise<{ server: T; port: number }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return { server, port: (server.address() as AddressInfo).port };
}

/** A loopback TCP server that echoes what it gets, upper-cased, so an answer cannot be the proxy's own bytes. */
async function echoServer(): Promise<number> {
  const server = createServer((socket) =>
    socket.on('data', (chunk) => socket.write(chunk.toString().toUpperCase())).on('error', () => undefined),
  );
  return (await listening(server)).port;
}

async function httpServer(): Promise<number> {
  const server = createHttpServer((req, res) =>
    res.end(`upstream saw ${req.method} ${req.url} host=${req.headers.host}`),
  );
  return (await listening(server)).port;
}

async function proxy(allow: string[], port: number): Promise<{ proxy: EgressProxy; records: EgressRecord[] }> {
  const records: EgressRecord[] = [];
  const started = await startEgressProxy({
    allow,
    onRequest: (record) => records.push(record),
    resolve: () => ({ host: '127.0.0.1', port }),
  });
  open.push(started);
  return { proxy: started, records };
}

/** Sends `CONNECT target` on the proxy's socket; resolves to the status line and, for a 200, what `payload` echoed. */
function tunnel(socketPath: string, target: string, payload: string): Promise<{ status: string; echoed: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let text = '';
    let status = '';
    socket.on('error', reject);
    socket.on('connect', () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (status === '' && text.includes('\r\n\r\n')) {
        status = text.split('\r\n')[0] ?? '';
        text = text.slice(text.indexOf('\r\n\r\n') + 4);
        if (status.includes(' 200 ')) socket.write(payload);
      }
      if (status.includes(' 200 ') && text.length >= payload.length) socket.end();
    });
    socket.on('close', () => resolve({ status, echoed: text }));
  });
}

/** A plain-HTTP proxy request (absolute URI) on the proxy's socket. */
function proxied(socketPath: string, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: url, method: 'GET', headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the egress proxy, as agents reach it', () => {
  it('CONNECT allowed:443 opens a tunnel that carries bytes both ways, and is traced with its byte count', async () => {
    const { proxy: started, records } = await proxy(['api.allowed.test'], await echoServer());
    const result = await tunnel(started.socketPath, 'api.allowed.test:443', 'client hello');
    expect(result).toEqual({ status: 'HTTP/1.1 200 Connection Established', echoed: 'CLIENT HELLO' });
    await expect.poll(() => records.length).toBe(1);
    expect(records[0]).toMatchObject({
      host: 'api.allowed.test',
      port: 443,
      method: 'CONNECT',
      status: 200,
      allowed: true,
      bytes: 24,
    });
  });

  it('CONNECT other:443 gets 403, reaches nothing and is traced as refused', async () => {
    let reached = 0;
    const server = createServer((socket) => {
      reached += 1;
      socket.destroy();
    });
    const { proxy: started, records } = await proxy(['api.allowed.test'], (await listening(server)).port);
    const result = await tunnel(started.socketPath, 'other.test:443', 'client hello');
    expect(result.status).toBe('HTTP/1.1 403 Forbidden');
    expect(result.echoed).toBe('');
    expect(records).toEqual([
      expect.objectContaining({
        host: 'other.test',
        port: 443,
        method: 'CONNECT',
        status: 403,
        allowed: false,
        bytes: 0,
      }),
    ]);
    expect(reached).toBe(0);
  });

  it('refuses a scheme other than http (GET ftp://allowed/…) even for an allowed host', async () => {
    const { proxy: started, records } = await proxy(['files.allowed.test'], await httpServer());
    const answer = await proxied(started.socketPath, 'ftp://files.allowed.test/pub/answer.patch');
    expect(answer.status).toBe(403);
    expect(records).toEqual([
      expect.objectContaining({ host: 'files.allowed.test', method: 'GET', status: 403, allowed: false }),
    ]);
    // the same host over http goes through: the refusal was the scheme's
    await expect(proxied(started.socketPath, 'http://files.allowed.test/pub/answer.patch')).resolves.toMatchObject({
      status: 200,
    });
  });

  it('matches host names case-insensitively: an allowlist of EXAMPLE.com lets example.COM and Example.Com:443 through', async () => {
    const upstream = await httpServer();
    const { proxy: started, records } = await proxy(['EXAMPLE.com'], upstream);
    await expect(proxied(started.socketPath, 'http://example.COM/v1/models')).resolves.toEqual({
      status: 200,
      body: 'upstream saw GET /v1/models host=example.com',
    });
    const { proxy: tunnelling } = await proxy(['EXAMPLE.com'], await echoServer());
    await expect(tunnel(tunnelling.socketPath, 'Example.Com:443', 'hi')).resolves.toMatchObject({
      status: 'HTTP/1.1 200 Connection Established',
      echoed: 'HI',
    });
    expect(records[0]).toMatchObject({ host: 'example.com', allowed: true, status: 200 });
    // and a near miss is still refused
    await expect(proxied(started.socketPath, 'http://example.com.evil.test/')).resolves.toMatchObject({ status: 403 });
  });

  it('close() ends an open tunnel and returns within its deadline', async () => {
    const { proxy: started } = await proxy(['api.allowed.test'], await echoServer());
    const socket = connect(started.socketPath);
    const ended = new Promise((resolve) => socket.on('close', resolve));
    socket.on('error', () => undefined);
    socket.write('CONNECT api.allowed.test:443 HTTP/1.1\r\nHost: api.allowed.test:443\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    open.splice(open.indexOf(started), 1);
    await expect(started.close()).resolves.toBeNull();
    await ended;
  });
});
