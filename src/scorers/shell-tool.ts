import type { EventOf, TraceEvent } from '../types/events.js';
import { TOOL_ENDS, type AttemptScores, type ToolEnd } from '../types/scores.js';
import { attemptStart, happenedBefore, ofType, primaryOnset } from './trace-query.js';
import { describeToolResult } from './tool-result-text.js';
import { isInstalledAgent } from '../types/variant.js';

export { TOOL_ENDS, type ToolEnd };

export type ShellToolScore = Pick<
  AttemptScores['scores'],
  'tool_return_ms' | 'tool_end' | 'left_after_tool' | 'left_after_exit' | 'tool_result' | 'tool_timeout_ms'
>;

const NONE: ShellToolScore = {
  tool_return_ms: null,
  tool_end: null,
  left_after_tool: null,
  left_after_exit: null,
  tool_result: null,
  tool_timeout_ms: null,
};

/** The string values of a tool call's arguments (JSON as the model wrote them), or the text itself. */
function argumentStrings(args: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  try {
    walk(JSON.parse(args));
  } catch {
    found.push(args);
  }
  return found;
}

/** The call ran this command: an argument is the command, holds it (a wrapper), or is held by it (the shim saw a wrapper). */
function callRan(result: EventOf<'tool.result'>, command: string): boolean {
  const wanted = command.trim();
  return argumentStrings(result.args).some(
    (arg) => arg.trim() !== '' && (arg.includes(wanted) || (arg.trim().length >= 3 && wanted.includes(arg.trim()))),
  );
}

/** The repro command the shell-tool scores are about: the onset's command when it ran the repro, else the first repro. */
function reproStart(events: readonly TraceEvent[]): EventOf<'command.start'> | undefined {
  const starts = ofType(events, 'command.start');
  const onset = primaryOnset(events);
  return (
    starts.find((start) => start.isRepro && start.commandId === onset?.commandId) ??
    starts.find((start) => start.isRepro)
  );
}

/**
 * (installed agents) What the CLI's own shell tool did with the case's repro, from the trace alone: when its result
 * reached the model, whether the command was still running then, ended with its whole tree or only its leader, or
 * never came back, and what of it was still alive then and when the CLI exited. null for other agents and attempts
 * that never ran the repro.
 */
export function shellTool(events: readonly TraceEvent[]): ShellToolScore {
  const { agent, toolTimeouts } = attemptStart(events);
  if (!isInstalledAgent(agent)) return NONE;
  const start = reproStart(events);
  if (!start) return NONE;
  const tool_timeout_ms = longestTimeout(toolTimeouts);
  const result = ofType(events, 'tool.result').find(
    (one) => !happenedBefore(one, start) && callRan(one, start.command),
  );
  const trees = ofType(events, 'command.tree').filter((tree) => tree.commandId === start.commandId);
  const atExit = trees.find((tree) => tree.at === 'agent.exit');
  const left_after_exit = atExit ? atExit.alive.length : null;
  if (!result)
    return { ...NONE, tool_end: unanswered(events, start, tool_timeout_ms), left_after_exit, tool_timeout_ms };
  const atTool = trees.find((tree) => tree.at === 'model.request' && tree.request === result.request);
  const left_after_tool = atTool ? atTool.alive.length : null;
  const output = ofType(events, 'tick')
    .filter((tick) => tick.commandId === start.commandId && happenedBefore(tick, result))
    .map((tick) => tick.output.text)
    .join('\n');
  return {
    tool_return_ms: result.t - start.t,
    tool_end: toolEnd(events, start.commandId, result, left_after_tool),
    left_after_tool,
    left_after_exit,
    tool_result: describeToolResult(result.text, output),
    tool_timeout_ms,
  };
}

function longestTimeout(timeouts: Readonly<Record<string, number>> | undefined): number | null {
  if (timeouts === undefined) return null;
  const values = Object.values(timeouts);
  return values.length === 0 ? null : Math.max(...values);
}

/**
 * A repro whose result never reached the model: `budget-first` when the attempt ended before the tool's own deadline
 * could pass (the repro ran no longer than it), so the cell says the budget and not the tool; else `never-returned`
 * (the tool has no deadline, or it passed and the tool still held the command).
 */
function unanswered(events: readonly TraceEvent[], start: EventOf<'command.start'>, timeoutMs: number | null): ToolEnd {
  if (timeoutMs === null) return 'never-returned';
  const kill = ofType(events, 'kill').find((one) => one.commandId === start.commandId && one.by !== 'agent');
  const end = kill ?? ofType(events, 'attempt.end')[0] ?? events.at(-1);
  const ranMs = (end?.t ?? start.t) - start.t;
  return ranMs <= timeoutMs ? 'budget-first' : 'never-returned';
}

/**
 * The repro's exit as of its tool result: recorded before the result, or after it when nothing of the repro was alive as
 * the result went out. A shim its tool SIGKILLed leaves no report, so the harness takes its exit a few hundred ms after
 * its pid went, and a CLI can send its next request sooner (cline: its 30 s kill, then the request at once).
 */
function exitAsOf(
  events: readonly TraceEvent[],
  commandId: number,
  result: EventOf<'tool.result'>,
  leftAfterTool: number | null,
): EventOf<'command.exit'> | undefined {
  const exits = ofType(events, 'command.exit').filter((one) => one.commandId === commandId);
  return exits.find((one) => happenedBefore(one, result)) ?? (leftAfterTool === 0 ? exits[0] : undefined);
}

function toolEnd(
  events: readonly TraceEvent[],
  commandId: number,
  result: EventOf<'tool.result'>,
  leftAfterTool: number | null,
): ToolEnd {
  const exit = exitAsOf(events, commandId, result, leftAfterTool);
  if (!exit) return 'returned-running';
  const kill = ofType(events, 'kill').find((one) => one.commandId === commandId && !happenedBefore(exit, one));
  if (kill && kill.by !== 'agent') return 'ended-by-harness';
  if (!kill && exit.signal === null) return 'exited';
  return leftAfterTool !== null && leftAfterTool > 0 ? 'killed-leader' : 'killed-tree';
}
