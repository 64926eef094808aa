import type { TraceEvent } from '../types/events.js';
import { attemptStart, happenedBefore, ofType } from './trace-query.js';

/**
 * control: a run of the repro exited 0 on its own — not marked killed, and no kill of it came before its exit.
 * Only repro runs count, so an agent cannot "complete" a control by running `ls`. null for hangs.
 */
export function completed(events: readonly TraceEvent[]): boolean | null {
  if (attemptStart(events).kind !== 'control') return null;
  const kills = ofType(events, 'kill');
  const repros = new Set(
    ofType(events, 'command.start')
      .filter((start) => start.isRepro)
      .map((start) => start.commandId),
  );
  return ofType(events, 'command.exit').some(
    (exit) =>
      repros.has(exit.commandId) &&
      exit.exitCode === 0 &&
      !exit.killed &&
      !kills.some((kill) => kill.commandId === exit.commandId && happenedBefore(kill, exit)),
  );
}
