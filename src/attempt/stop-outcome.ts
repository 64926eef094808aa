import type { KillDecider } from '../types/process.js';
import type { Outcome } from '../types/scores.js';

/** Why the agent loop ended early: a budget, the harness shutting down, or an error; null when the agent finished. */
export type StopReason = { kind: 'wall' | 'tokens' | 'turns'; value: number; limit: number } | { kind: 'harness' } | { kind: 'error'; message: string };

/**
 * What a stop means for the attempt: its outcome, and who is recorded as killing a command still running.
 * A budget is a limit (the budget kills); the harness shutting down or an error is an ERROR, never the agent's
 * FAIL; a finished agent completed, and the harness ends what it left running.
 */
export function stopOutcome(reason: StopReason | null): { readonly outcome: Outcome; readonly killer: KillDecider } {
  if (reason === null) return { outcome: 'completed', killer: 'harness' };
  if (reason.kind === 'harness' || reason.kind === 'error') return { outcome: 'error', killer: 'harness' };
  return { outcome: 'limit', killer: 'budget' };
}
