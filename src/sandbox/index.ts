export { probeHost } from './host/probe.js';
export { applyHarnessNice, harnessNice } from './harness-priority.js';
export { isolationWarning, requireIsolation } from './host/isolation.js';
export { innerPid, isLive } from '../proc/index.js';
export { ObservedProcess, type ObservedExit } from './agent/observed.js';
export { createSandbox, pyenvVersionBin } from './sandbox.js';
export { killEverySandboxNow } from './kill/live.js';
export { scrubEnvironment, isSecretName } from './env.js';
export { openBridge } from './net/bridge.js';
export { withoutInheritedFds } from './host/inherited-fds.js';
export { startAgentSandbox, type AgentSandbox } from './agent/agent-sandbox.js';
export { startEgressProxy, type EgressProxy, type EgressRecord } from './net/egress-proxy.js';
export type { Bridge, BridgeOptions, BridgeTarget } from './net/bridge.js';
export type {
  CommandRunner,
  CpuTimes,
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
