import type { Sandbox } from '../../sandbox/index.js';

/** The TCP port the agent's endpoint has inside the sandbox's own network namespace (nothing else listens there). */
const INSIDE_PORT = 48417;

/** How an agent inside the sandbox reaches the model proxy's Unix socket: a base URL, and whatever must stop with it. */
export interface SandboxEndpoint {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * 127.0.0.1:INSIDE_PORT inside the sandbox, forwarded by the sandbox's bridge to the proxy's socket on the host. The
 * bridge's listener is the harness's (handed over from inside the sandbox's network namespace), so nothing of it runs
 * in the sandbox for the agent to kill or replace.
 */
export async function openSandboxEndpoint(
  sandbox: Sandbox,
  socketPath: string,
  basePath: string,
): Promise<SandboxEndpoint> {
  const bridge = await sandbox.openBridge({ socketPath }, { port: INSIDE_PORT });
  return { baseUrl: `${bridge.url}${basePath}`, close: () => bridge.close() };
}
