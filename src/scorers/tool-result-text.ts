import type { ToolResultScore } from '../types/scores.js';

/**
 * Words a shell tool uses for why it came back, most specific first, matched on its own framing of the result (the
 * command's output taken out, so a command that prints "in the background" or "npm error canceled" gives no reason).
 */
const REASONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/timed? ?out|timeout/i, 'timeout'],
  [/cancel/i, 'cancelled'],
  [/moved to the background/i, 'moved to the background'],
  [/session id|still running|process running/i, 'still running'],
  [/^Signal: (?!\(none\))\S+/im, 'killed'],
  [/terminated|killed|sigterm|sigkill|sigint|aborted/i, 'killed'],
  [/exit(?:ed)?(?: with)? code:? ?-?\d+/i, 'exit code'],
];

/**
 * Lines of a tool's framing that name no reason: field lines that are empty (`Signal: (none)`), process ids the tool
 * reports of every command (gemini's `Background PIDs`, qwen's and gemini's `Process Group PGID`), and its echo of the
 * command and the directory.
 */
const UNINFORMATIVE =
  /^(?:[A-Z][A-Za-z ]*: \(none\)|Background PIDs:.*|Process Group PGID:.*|Command: .*|Directory: .*)$/;

/** The strings a JSON tool result carries (cline's `[{query, result, error, success}]`, gemini's `{output}`), else the text. */
function unwrapped(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    const strings: string[] = [];
    const walk = (value: unknown, key: string | null): void => {
      if (typeof value === 'string' && key !== 'query') strings.push(value);
      else if (Array.isArray(value)) value.forEach((item) => walk(item, key));
      else if (typeof value === 'object' && value !== null)
        Object.entries(value).forEach(([name, item]) => walk(item, name));
    };
    walk(JSON.parse(trimmed), null);
    return strings.join('\n');
  } catch {
    return text;
  }
}

/** What the tool itself wrote around the command's output: the result without the lines the command printed. */
export function toolFraming(text: string, outputLines: ReadonlySet<string>): string {
  return unwrapped(text)
    .replace(/<\/?untrusted_context>/g, '')
    .split('\n')
    .map((line) => line.trim().replace(/^Output: /, ''))
    .filter((line) => line !== '' && !outputLines.has(line) && !UNINFORMATIVE.test(line))
    .join('\n');
}

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
 * (a line the command printed before it came back), and the elapsed time it states and the reason it gives — both read
 * from the tool's own framing and fields (`Exit Code:`, `Signal:`, cline's `error`), never from the command's output.
 * `output` is the command's output as the monitor saw it; '' when it printed nothing (held_output null).
 */
export function describeToolResult(text: string, output: string): ToolResultScore {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length >= 4);
  const framing = toolFraming(text, new Set(lines));
  const reason = REASONS.find(([pattern]) => pattern.test(framing));
  return {
    text,
    held_output: lines.length === 0 ? null : lines.some((line) => text.includes(line)),
    elapsed_ms: statedElapsedMs(framing),
    reason: reason ? reason[1] : null,
  };
}
