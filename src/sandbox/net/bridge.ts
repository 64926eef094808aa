import { spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { HangbenchError } from '../../types/errors.js';
import { withoutInheritedFds } from '../host/inherited-fds.js';

/** Where a bridge forwards to on the host: a Unix socket (a proxy listening on a path) or a loopback TCP port. */
export type BridgeTarget = { readonly socketPath: string } | { readonly host: string; readonly port: number };

/** A TCP endpoint on 127.0.0.1 inside a sandbox's network namespace, forwarded by the harness to a host-side target. */
export interface Bridge {
  /** the port inside the sandbox (the one asked for, or the one the kernel chose). */
  readonly port: number;
  /** `http://127.0.0.1:<port>`: a base URL a sandboxed program can be given. */
  readonly url: string;
  /** connections accepted so far (a test can tell a request went through the bridge). */
  readonly connections: () => number;
  /** Stops listening and ends every forwarded connection. */
  close(): Promise<void>;
}

export interface BridgeOptions {
  /** the port to listen on inside; 0 (default) lets the kernel choose. Below 1024 is refused inside the sandbox. */
  readonly port?: number;
}

const START_TIMEOUT_MS = 10_000;

/**
 * Runs in the sandbox, as the sandbox user, for a few milliseconds: opens the listening socket in the sandbox's
 * network namespace and hands it to the harness over Node's IPC channel (SCM_RIGHTS), then exits. From then on the
 * harness accepts and forwards; nothing of the bridge runs inside, so nothing inside can stop or replace it.
 */
const LISTENER = [
  "const server = require('node:net').createServer({ pauseOnConnect: true });",
  "server.on('error', (error) => { process.stderr.write(error.message + '\\n'); process.exit(1); });",
  "server.listen({ host: '127.0.0.1', port: Number(process.env.HANGBENCH_BRIDGE_PORT) }, () =>",
  '  process.send({ port: server.address().port }, server, () => process.exit(0)));',
].join('\n');

/**
 * Opens a bridge into the sandbox a command prefix enters (Jail.enterPrefix()), or, with `enter` null (no sandbox
 * network namespace: the host-user fallback), on the host's own loopback.
 */
export async function openBridge(
  enter: readonly string[] | null,
  target: BridgeTarget,
  options: BridgeOptions = {},
): Promise<Bridge> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new HangbenchError('SANDBOX', `bridge port must be 0..65535, got ${port}`);
  const server = enter === null ? await listenOnHost(port) : await listenInside(enter, port);
  return forward(server, target);
}

function listenOnHost(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer({ pauseOnConnect: true });
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}

function listenInside(enter: readonly string[], port: number): Promise<Server> {
  // fd 3 is the IPC channel the listener hands its socket back on.
  const [file, ...args] = withoutInheritedFds([...enter, process.execPath, '-e', LISTENER], [3]);
  const child = spawn(file, args, {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { PATH: '/usr/bin:/bin', HANGBENCH_BRIDGE_PORT: String(port) },
  });
  return new Promise((resolve, reject) => {
    let err = '';
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new HangbenchError('SANDBOX', `could not open a bridge on 127.0.0.1:${port} inside the sandbox: ${why}`));
    };
    const timer = setTimeout(() => fail(`no listener after ${START_TIMEOUT_MS}ms`), START_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error) => fail(error.message));
    child.on('message', (_message: unknown, handle: unknown) => {
      clearTimeout(timer);
      if (handle instanceof Object && 'address' in handle) resolve(handle as Server);
      else fail('the listener sent no socket');
    });
    child.on('exit', (code, signal) => {
      if (code !== 0) fail(`listener exited with ${code ?? signal}: ${err.trim().split('\n')[0] ?? ''}`);
    });
  });
}

function forward(server: Server, target: BridgeTarget): Bridge {
  const open = new Set<Socket>();
  let accepted = 0;
  server.on('connection', (inside: Socket) => {
    accepted += 1;
    const outside = 'socketPath' in target ? connect(target.socketPath) : connect(target.port, target.host);
    for (const socket of [inside, outside]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    }
    inside.on('error', () => outside.destroy());
    outside.on('error', () => inside.destroy());
    inside.pipe(outside).on('error', () => undefined);
    outside.pipe(inside).on('error', () => undefined);
    inside.resume();
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
