import { availableParallelism } from 'node:os';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** Every default in one place; options are resolved once from all-optional to readonly. */
export const DEFAULTS = {
  agent: 'baseline' as const,
  mode: 'interval' as const,
  /** the period of every mode that has one: interval's every, no-output's after, backoff's first, timeout's after. */
  intervalMs: 10_000,
  /** backoff: each gap is this many times the one before, up to maxMs. */
  backoffFactor: 2,
  backoffMaxMs: 60_000,
  timeScale: 1,
  /** eval without --concurrency: idle attempts per core (CPU-heavy ones take CPU slots, one core left free). */
  idleAttemptsPerCore: 16,
  /** eval: ms between two attempt starts, so sandbox set-up and program start-up do not all coincide. */
  startGapMs: 100,
  /** check-cases without --concurrency: cases checked at once. */
  checkConcurrency: Math.max(1, Math.min(4, availableParallelism())),
  repeat: 1,
  out: 'results',
  /** baseline: consecutive "hung" ticks before it kills. */
  hungTicks: 2,
  /** baseline in poll mode: how long each of its waits lasts before it polls the status again. */
  pollEveryMs: 10_000,
  /** case hints are given unless a variant turns them off. */
  hints: true,
  maxTurns: 200,
  /** openai: the prompt folder under prompts/. */
  prompt: 'minimal',
  /** openai: one model request may take this long before it is abandoned (and retried). */
  requestTimeoutMs: 120_000,
  /** verify timeouts scale with --time-scale but never below this, so process start-up still fits. */
  verifyFloorMs: 3_000,
  /** the seed of the interleaved attempt order (and of bootstrap intervals). */
  seed: 1,
  /**
   * sandbox: each command's limits, generous enough for `node` and `python3` to behave normally, tight enough to stop
   * a runaway. Measured: Node with worker threads fails to reserve its code range below ~3 GiB of address space,
   * 8 workers need 8 GiB; plain `node -e 1` and python3 run under 1 GiB. Node's `fetch` (undici parses HTTP in
   * WebAssembly, which reserves its guard regions up front) dies at 8 GiB and works at 16 GiB: 32 GiB leaves room
   * for a few of those, and the attempt's memory cgroup is what bounds real memory.
   */
  limits: {
    processes: 512,
    addressSpaceBytes: 32 * GiB,
    // address space is per process, so four processes could take 32 GiB; this bounds the attempt as a whole
    memoryBytes: 2 * GiB,
    fileSizeBytes: 512 * MiB,
    // longer than any wall budget, so a busy-loop fixture hangs until someone kills it rather than dying of SIGXCPU
    cpuSeconds: 900,
    nice: 10,
  },
  /** sandbox: how long a kill waits after the first signal, after SIGTERM and after SIGKILL before it moves on. */
  killGraces: { afterFirstMs: 300, afterTermMs: 300, afterKillMs: 2_000 },
  /** capture: the tick interval, the hung ticks that end the watch, and how long a command is watched at most. */
  captureIntervalMs: 2_000,
  captureHungTicks: 2,
  captureMaxMs: 120_000,
} as const;
