export { probeHost } from './probe.js';
export { isolationWarning, requireIsolation } from './isolation.js';
export { innerPid, isLive } from '../proc/index.js';
export { ObservedProcess, type ObservedExit } from './observed.js';
export { createSandbox, pyenvVersionBin } from './sandbox.js';
export { killEverySandboxNow } from './live.js';
export { scrubEnvironment, isSecretName } from './env.js';
export { openBridge } from './bridge.js';
export { startAgentSandbox, type AgentSandbox } from './agent-sandbox.js';
export { startEgressProxy, type EgressProxy, type EgressRecord } from './egress-proxy.js';
export type { Bridge, BridgeOptions, BridgeTarget } from './bridge.js';
export type {
  CommandRunner,
  HostCapabilities,
  Isolation,
  CgroupLimits,
  KillGraces,
  LeakReport,
  ResourceLimits,
  Sandbox,
  SandboxOptions,
  SandboxLimitHit,
  SandboxProcess,
  SpawnOptions,
} from './types.js';
