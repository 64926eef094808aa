import type { Sandbox, SandboxProcess } from '../../sandbox/index.js';

/** The TCP port the agent's endpoint has inside the sandbox's own network namespace (nothing else listens there). */
export const INSIDE_PORT = 48417;

/** How an agent inside the sandbox reaches the model proxy's Unix socket: a base URL, and whatever must stop with it. */
export interface SandboxEndpoint {
  readonly baseUrl: string;
  close(): Promise<void>;
}

const FORWARDER = [
  "const net = require('node:net');",
  'const [socket, port] = process.argv.slice(1);',
  'net.createServer((client) => {',
  '  const proxy = net.connect(socket);',
  '  client.pipe(proxy).pipe(client);',
  "  client.on('error', () => proxy.destroy()); proxy.on('error', () => client.destroy());",
  "}).listen(Number(port), '127.0.0.1', () => console.log('ready'));",
].join('\n');

/**
 * A loopback port inside the sandbox forwarding to the proxy socket bound into it. Interim: the sandbox's bridge
 * (docs/isolation.md) replaces this forwarder, which runs as a sandboxed process of the attempt, behind this interface.
 */
export async function openSandboxEndpoint(sandbox: Sandbox, socketInside: string, commandId: number, basePath: string): Promise<SandboxEndpoint> {
  const forwarder: SandboxProcess = sandbox.spawn('exec node -e "$HB_FORWARDER" "$HB_SOCKET" "$HB_PORT"', {
    commandId,
    env: { HB_FORWARDER: FORWARDER, HB_SOCKET: socketInside, HB_PORT: String(INSIDE_PORT) },
  });
  forwarder.stdin.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    forwarder.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    forwarder.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready')) resolve();
    });
    void forwarder.exited.then((exit) => reject(new Error(`the endpoint forwarder exited (${exit.exitCode ?? exit.signal}): ${err.trim().split('\n').at(-1) ?? ''}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${INSIDE_PORT}${basePath}`,
    close: async () => {
      if (!forwarder.done) await forwarder.kill('harness', 'attempt over: endpoint forwarder', 'SIGTERM');
    },
  };
}
