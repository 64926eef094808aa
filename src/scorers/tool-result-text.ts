import type { ToolResultScore } from '../types/scores.js';

/** Words a shell tool uses for why it came back without an exit, most specific first. */
const REASONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/timed? ?out|timeout/i, 'timeout'],
  [/cancel/i, 'cancelled'],
  [/background/i, 'moved to the background'],
  [/session id|still running|process running/i, 'still running'],
  [/terminated|killed|sigterm|sigkill|sigint|signal/i, 'killed'],
  [/exit(?:ed)?(?: with)? code:? ?-?\d+/i, 'exit code'],
];

const UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
};

/** The first duration the text states (`after 120000ms`, `Wall time: 10.0 seconds`, `0.2 minutes`), in ms. */
export function statedElapsedMs(text: string): number | null {
  const match = /(\d+(?:\.\d+)?)\s*(milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|min|m)\b/i.exec(text);
  if (!match) return null;
  return Math.round(Number(match[1]) * (UNITS[match[2]!.toLowerCase()] ?? 1));
}

/**
 * What a tool result tells the model about a command: its text (kept as sent), whether it holds the command's output
 * (a line the command printed before it came back), the elapsed time it states and the reason it gives, in the words
 * of REASONS. `output` is the command's output as the monitor saw it; '' when it printed nothing (held_output null).
 */
export function describeToolResult(text: string, output: string): ToolResultScore {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length >= 4);
  const reason = REASONS.find(([pattern]) => pattern.test(text));
  return {
    text,
    held_output: lines.length === 0 ? null : lines.some((line) => text.includes(line)),
    elapsed_ms: statedElapsedMs(text),
    reason: reason ? reason[1] : null,
  };
}
