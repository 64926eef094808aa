/**
 * Installed agent CLIs (`--agent cli:<name>`, docs/installed-agents.md): the one entry of agents/cli/ for the rest of
 * src/. The registry makes the factory; the attempt's installed-agent phase lays out the jail (the shell shim, the
 * shim watcher, the model proxy behind a sandbox endpoint) and records the tool results the CLI sends its model.
 */
export { cliAgent, PROBE_MODEL, type CliSettings } from './agent.js';
export type { InstalledAgent, InstalledAgentFactory } from './installed.js';
export { adapterDirs, expand, type Adapter } from './adapter.js';
export { bundledAdapters } from './bundled-adapters.js';
export type { InstalledPackage } from './install.js';
export { AGENT_BASE_PATH, type ModelProxy } from './model-proxy.js';
export { startAttemptProxy } from './attempt-proxy.js';
export { openSandboxEndpoint, type SandboxEndpoint } from './sandbox-endpoint.js';
export { INSIDE, shellShim } from './shell-shim.js';
export { ShimWatcher } from './shim-watcher.js';
export { toolExchanges } from './tool-results.js';
