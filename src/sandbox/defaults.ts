import type { KillGraces, ResourceLimits } from './types.js';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/**
 * Limits generous enough for `node` and `python3` to behave normally, tight enough to stop a runaway.
 * Measured here: Node with worker threads fails to reserve its code range below ~3 GiB of address space,
 * 8 workers need 8 GiB; plain `node -e 1` and python3 run under 1 GiB. Node's `fetch` (undici parses HTTP in
 * WebAssembly, which reserves its guard regions up front) dies at 8 GiB and works at 16 GiB: 32 GiB leaves room for a
 * few of those, and the attempt's memory cgroup below is what bounds real memory.
 */
export const DEFAULT_LIMITS: ResourceLimits = {
  processes: 512,
  addressSpaceBytes: 32 * GiB,
  // Address space is per process, so four processes could take 32 GiB; this bounds the attempt as a whole.
  memoryBytes: 2 * GiB,
  fileSizeBytes: 512 * MiB,
  // Longer than any wall budget, so a busy-loop fixture hangs until someone kills it rather than dying of SIGXCPU.
  cpuSeconds: 900,
  nice: 10,
};

export const DEFAULT_GRACES: KillGraces = {
  afterFirstMs: 300,
  afterTermMs: 300,
  afterKillMs: 2_000,
};

/** How often a kill in progress re-lists the tree; reading cgroup.procs costs tens of µs. */
export const POLL_MS = 5;
