import type { EventOf, TraceEvent } from '../types/events.js';
import { attemptStart, firstOfType, happenedBefore, ofType, primaryOnset } from './trace-query.js';

/** A shell reports a child ended by signal n as exit code 128 + n. */
const SIGNAL_EXIT_CODES = 128;

/**
 * hang: the onset happened in a command the agent started, before its first edit, and the hang was there: that command
 * did not end on its own after it. A repro that prints its onset line and then exits by itself (its prompt read
 * end-of-file from /dev/null) did not hang. null for controls.
 */
export function reproduced(events: readonly TraceEvent[]): boolean | null {
  if (attemptStart(events).kind !== 'hang') return null;
  const onset = primaryOnset(events);
  if (!onset) return false;
  const firstEdit = firstOfType(events, 'file.write');
  if (firstEdit !== undefined && !happenedBefore(onset, firstEdit)) return false;
  return !endedOnItsOwn(events, onset);
}

/**
 * The onset's command exited after it, and nothing ended it: no kill (the harness marks the exit a kill causes), no
 * signal (an installed CLI's own timeout, reported by a shell as 128 + n), no input from the agent between the onset
 * and the exit (an answered prompt goes on by design).
 */
function endedOnItsOwn(events: readonly TraceEvent[], onset: EventOf<'onset'>): boolean {
  const exit = ofType(events, 'command.exit').find(
    (event) => event.commandId === onset.commandId && happenedBefore(onset, event),
  );
  if (!exit || exit.killed || exit.signal !== null) return false;
  if (exit.exitCode !== null && exit.exitCode > SIGNAL_EXIT_CODES) return false;
  const answered = ofType(events, 'action').some(
    (event) => event.action.type === 'input' && happenedBefore(onset, event) && happenedBefore(event, exit),
  );
  return !answered;
}
