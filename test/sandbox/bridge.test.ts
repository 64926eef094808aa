import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { onlyOnHostShape } from '../support/capability.js';
import { run, sandboxPerTest } from './helpers.js';

const makeSandbox = sandboxPerTest();

/** A host-side proxy stand-in: an HTTP server on a Unix socket that says who it is and what it was asked. */
let unixServer: Server;
let tcpServer: Server;
let tcpPort = 0;
let socketDir: string;
let socketPath: string;
let sandbox: Sandbox;

function listen(server: Server, where: string | number): Promise<void> {
  return new Promise((resolve) =>
    typeof where === 'string' ? server.listen(where, resolve) : server.listen(where, '127.0.0.1', resolve),
  );
}

beforeAll(async () => {
  socketDir = await mkdtemp(join(tmpdir(), 'hangbench-bridge-'));
  socketPath = join(socketDir, 'proxy.sock');
  unixServer = createServer((request, response) => response.end(`unix-proxy saw ${request.method} ${request.url}\n`));
  tcpServer = createServer((_request, response) => response.end('host-tcp answered\n'));
  await listen(unixServer, socketPath);
  await listen(tcpServer, 0);
  const address = tcpServer.address();
  tcpPort = typeof address === 'object' && address !== null ? address.port : 0;
});
// A fresh sandbox per test. In the host-user fallback a bridge listens on the host's loopback, which a command reaches
// only on the host network (as the exec agent's unjailed process does), not in a network namespace of its own.
beforeEach(async () => {
  sandbox = await makeSandbox('bridge', { network: process.env.HANGBENCH_ISOLATION === 'host-user' ? 'host' : 'none' });
});
afterAll(async () => {
  unixServer.close();
  tcpServer.close();
  await rm(socketDir, { recursive: true, force: true });
});

/** An HTTP/1.0 GET from inside the sandbox with bash's /dev/tcp, so the test needs no curl. */
function getInside(port: number, path: string): string {
  return `exec 3<>/dev/tcp/127.0.0.1/${port} || exit 7; printf 'GET ${path} HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n' >&3; cat <&3`;
}

function freePort(): Promise<number> {
  const server = createNetServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    }),
  );
}

async function sh(command: string, commandId: number): Promise<{ text: string; code: number | null }> {
  const { proc, out } = run(sandbox, command, commandId);
  const exit = await proc.exited;
  return { text: out.text, code: exit.exitCode };
}

describe('a bridge into the sandbox', () => {
  it('forwards 127.0.0.1:<port> inside to a host Unix socket, on the port asked for', async () => {
    // a port free on this host right now (another checkout's tests may hold any fixed one)
    const asked = await freePort();
    const bridge = await sandbox.openBridge({ socketPath }, { port: asked });
    expect(bridge.port).toBe(asked);
    expect(bridge.url).toBe(`http://127.0.0.1:${asked}`);
    const { text, code } = await sh(getInside(asked, '/v1/models'), 1);
    expect(code).toBe(0);
    expect(text).toContain('unix-proxy saw GET /v1/models');
    expect(bridge.connections()).toBe(1);
    await bridge.close();
    const after = await sh(getInside(asked, '/'), 2);
    expect(after.text).not.toContain('unix-proxy');
  });

  it('forwards to a host TCP port on a port the kernel chose', async () => {
    const bridge = await sandbox.openBridge({ host: '127.0.0.1', port: tcpPort });
    expect(bridge.port).toBeGreaterThan(0);
    const { text } = await sh(getInside(bridge.port, '/'), 3);
    expect(text).toContain('host-tcp answered');
    await bridge.close();
  });

  it('leaves the host loopback unreachable otherwise, under bubblewrap', async (context) => {
    onlyOnHostShape(
      context,
      sandbox.capabilities.isolation === 'bubblewrap',
      'bubblewrap runs: in the host-user fallback a command shares or lacks the host loopback',
    );
    const { text } = await sh(`${getInside(tcpPort, '/')} 2>&1; echo "exit $?"`, 4);
    expect(text).not.toContain('host-tcp answered');
    expect(text).toMatch(/Connection refused|exit 7/);
  });

  it('refuses a port out of range', async () => {
    await expect(sandbox.openBridge({ socketPath }, { port: 70_000 })).rejects.toThrow(
      /bridge port must be 0\.\.65535/,
    );
  });
});
