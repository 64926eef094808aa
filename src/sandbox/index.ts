export { probeHost } from './probe.js';
export { createSandbox } from './sandbox.js';
export { killEverySandboxNow } from './live.js';
export { DEFAULT_GRACES, DEFAULT_LIMITS } from './defaults.js';
export { scrubEnvironment, isSecretName } from './env.js';
export type {
  HostCapabilities,
  KillGraces,
  LeakReport,
  ResourceLimits,
  Sandbox,
  SandboxOptions,
  SandboxLimitHit,
  SandboxProcess,
  SpawnOptions,
} from './types.js';
