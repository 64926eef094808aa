import { availableParallelism } from 'node:os';
import type { AgentName, ModeName } from './types/variant.js';

/** Every default in one place; options are resolved once from all-optional to readonly. */
export const DEFAULTS = {
  agent: 'baseline' as AgentName,
  mode: 'interval' as ModeName,
  /** the period of every mode that has one: interval's every, no-output's after, backoff's first, timeout's after. */
  intervalMs: 10_000,
  /** backoff: each gap is this many times the one before, up to maxMs. */
  backoffFactor: 2,
  backoffMaxMs: 60_000,
  timeScale: 1,
  concurrency: Math.max(1, Math.min(4, availableParallelism())),
  repeat: 1,
  out: 'results',
  /** baseline: consecutive "hung" ticks before it kills. */
  hungTicks: 2,
  /** baseline in poll mode: how long each of its waits lasts before it polls the status again. */
  pollEveryMs: 10_000,
  maxTurns: 200,
  /** openai: the prompt folder under prompts/. */
  prompt: 'minimal',
  /** verify timeouts scale with --time-scale but never below this, so process start-up still fits. */
  verifyFloorMs: 3_000,
  /** the seed of the interleaved attempt order (and of bootstrap intervals). */
  seed: 1,
} as const;
