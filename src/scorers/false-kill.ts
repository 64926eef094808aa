import type { TraceEvent } from '../types/events.js';
import { attemptStart, happenedBefore, ofType } from './trace-query.js';

/** control: the agent killed a command that had not exited — in a control every command is healthy. null for hangs. */
export function falseKill(events: readonly TraceEvent[]): boolean | null {
  if (attemptStart(events).kind !== 'control') return null;
  const exits = ofType(events, 'command.exit');
  return ofType(events, 'kill').some(
    (kill) =>
      kill.by === 'agent' && !exits.some((exit) => exit.commandId === kill.commandId && happenedBefore(exit, kill)),
  );
}
