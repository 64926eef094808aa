import { availableParallelism } from 'node:os';

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
} as const;
