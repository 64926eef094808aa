import type { Classification } from '../types/process.js';
import type { TraceEvent } from '../types/events.js';
import { agentKillsOf, happenedBefore, ofType, primaryOnset } from './trace-query.js';

/** The command the attempt is about: the onset's command, else the first repro run, else the first command. */
function subjectCommandId(events: readonly TraceEvent[]): number | undefined {
  const onset = primaryOnset(events);
  if (onset) return onset.commandId;
  const starts = ofType(events, 'command.start');
  return (starts.find((start) => start.isRepro) ?? starts[0])?.commandId;
}

/**
 * The monitor's classification in the last tick of that command before the agent killed it,
 * or before it exited when the agent did not kill it; null when neither happened or no tick came first.
 */
export function classificationAtEnd(events: readonly TraceEvent[]): Classification | null {
  const commandId = subjectCommandId(events);
  if (commandId === undefined) return null;
  const end =
    agentKillsOf(events, commandId)[0] ?? ofType(events, 'command.exit').find((exit) => exit.commandId === commandId);
  if (!end) return null;
  const ticks = ofType(events, 'tick').filter((tick) => tick.commandId === commandId && happenedBefore(tick, end));
  return ticks.at(-1)?.classification ?? null;
}
