import { HangbenchError, LimitExceeded } from '../types/errors.js';
import type { ResultsFault } from '../trace/results-fault.js';
import type { EventInput } from '../types/events.js';
import type { KillDecider, SignalName } from '../types/process.js';
import type { AttemptScores, Outcome } from '../types/scores.js';
import type { LimitKind } from '../types/limits.js';

/**
 * Why the agent loop ended early: a budget, the harness shutting down, an error, the results folder refusing a write
 * (`fault`), or the sandbox killed from outside (`lost`); null when the agent finished.
 */
export type StopReason =
  | { kind: LimitKind; value: number; limit: number; cpuWaitMs?: number }
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
  if (reason.kind === 'wall' || reason.kind === 'tokens' || reason.kind === 'turns')
    return { outcome: 'limit', killer: 'budget' };
  return { outcome: 'error', killer: 'harness' };
}

/** What the agent phase saw end it, and what else was true once it had. */
export interface StopSeen {
  /** the agent phase's own answer: null when the agent finished. */
  readonly caught: StopReason | null;
  /** the attempt's stop signal's reason once aborted (a fault of the results folder may come after the loop), or null. */
  readonly aborted: StopReason | null;
  /** why the sandbox was killed from outside, or null. */
  readonly lost: string | null;
}

/** The one reading of a stop: everything the attempt does differently because of how it ended. */
export interface SettledStop {
  readonly reason: StopReason | null;
  /** the trace events that say why it stopped (a limit, an error). */
  readonly events: readonly EventInput[];
  readonly outcome: Outcome;
  readonly killer: KillDecider;
  /** the kill record's reason for the commands still running. */
  readonly why: string;
  /** a harness that is stopping (a signal, a broken results folder) kills at once: nothing is kept for a TERM handler. */
  readonly killSignal: SignalName;
  /** verify runs unless the harness is shutting down (a refused write skips it too: the record phase checks the trace). */
  readonly verify: boolean;
  /** the harness shut down: the trace is kept, no score, so resume runs the attempt again. */
  readonly unscored: boolean;
  /** the sandbox's fault, recorded in score.json (a results fault comes from the trace). */
  readonly fault: NonNullable<AttemptScores['fault']> | null;
}

export function settleStop(seen: StopSeen): SettledStop {
  let reason = seen.caught;
  // A fault of the results folder met after the loop (a kill's event) stops the attempt all the same.
  if (reason === null && seen.aborted?.kind === 'fault') reason = seen.aborted;
  // A sandbox killed from outside ends every command in it: whatever the agent then did is no measure of it.
  if (seen.lost !== null && reason?.kind !== 'harness' && reason?.kind !== 'fault')
    reason = { kind: 'lost', message: seen.lost };
  const { outcome, killer } = stopOutcome(reason);
  const stopping = reason?.kind === 'harness' || reason?.kind === 'fault';
  return {
    reason,
    events: stopEvents(reason),
    outcome,
    killer,
    why: reason ? `attempt stopped: ${reason.kind}` : 'agent finished with the command still running',
    killSignal: stopping ? 'SIGKILL' : 'SIGTERM',
    verify: reason?.kind !== 'harness',
    unscored: reason?.kind === 'harness',
    fault: reason?.kind === 'lost' ? { where: 'sandbox', code: 'SANDBOX_LOST', message: reason.message } : null,
  };
}

function stopEvents(reason: StopReason | null): EventInput[] {
  switch (reason?.kind) {
    case 'wall':
    case 'tokens':
    case 'turns':
      return [{ type: 'limit', ...reason }];
    case 'lost':
      return [{ type: 'error', where: 'sandbox', message: reason.message }];
    case 'error':
      return [{ type: 'error', where: 'agent', message: reason.message }];
    case 'fault':
      return [{ type: 'error', where: 'results', message: `${reason.code}: ${reason.message}` }];
    default:
      return [];
  }
}

/** An agent that stops itself on a budget (LimitExceeded) is a limit, like the runner's own; anything else thrown is an ERROR. */
export function stopReasonOf(error: unknown): StopReason {
  if (error instanceof LimitExceeded) return { kind: error.kind, value: error.value, limit: error.limit };
  // Typed errors (endpoint, external agent) carry a complete message; a stack would only bury it.
  if (error instanceof HangbenchError)
    return { kind: 'error', message: `${error.name} [${error.code}]: ${error.message}` };
  return { kind: 'error', message: (error as Error).stack ?? String(error) };
}
