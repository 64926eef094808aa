import type { TraceEvent } from '../types/events.js';
import { attemptStart, happenedBefore, ofType } from './trace-query.js';

/** control: some command exited 0 on its own — not marked killed, and no kill of it came before its exit. null for hangs. */
export function completed(events: readonly TraceEvent[]): boolean | null {
  if (attemptStart(events).kind !== 'control') return null;
  const kills = ofType(events, 'kill');
  return ofType(events, 'command.exit').some(
    (exit) =>
      exit.exitCode === 0 &&
      !exit.killed &&
      !kills.some((kill) => kill.commandId === exit.commandId && happenedBefore(kill, exit)),
  );
}
