import type { ResultsFault } from '../trace/results-fault.js';
import type { KillDecider } from '../types/process.js';
import type { Outcome } from '../types/scores.js';

/**
 * Why the agent loop ended early: a budget, the harness shutting down, an error, the results folder refusing a write
 * (`fault`), or the sandbox killed from outside (`lost`); null when the agent finished.
 */
export type StopReason =
  | { kind: 'wall' | 'tokens' | 'turns'; value: number; limit: number }
  | { kind: 'harness' }
  | { kind: 'error'; message: string }
  | ({ kind: 'fault' } & ResultsFault)
  | { kind: 'lost'; message: string };

/**
 * What a stop means for the attempt: its outcome, and who is recorded as killing a command still running.
 * A budget is a limit (the budget kills); the harness shutting down or an error is an ERROR, never the agent's
 * FAIL; a finished agent completed, and the harness ends what it left running.
 */
export function stopOutcome(reason: StopReason | null): { readonly outcome: Outcome; readonly killer: KillDecider } {
  if (reason === null) return { outcome: 'completed', killer: 'harness' };
  if (reason.kind === 'wall' || reason.kind === 'tokens' || reason.kind === 'turns') return { outcome: 'limit', killer: 'budget' };
  return { outcome: 'error', killer: 'harness' };
}
