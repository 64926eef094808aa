import type { Tick } from '../types/process.js';

const HEAD = 1024;
const TAIL = 3072;

/**
 * Ticks that fired while the agent was still deciding are delivered together as one: the latest tick's state with
 * the output of all of them, bounded like a single tick's (head + marker + tail), so no output is lost to slow agents.
 */
export function mergeTicks(ticks: readonly Tick[]): Tick {
  const last = ticks.at(-1);
  if (!last) throw new Error('mergeTicks needs at least one tick');
  if (ticks.length === 1) return last;
  const withOutput = ticks.filter((tick) => tick.output.bytes > 0);
  const joined = withOutput.map((tick) => tick.output.text).join('');
  const text =
    joined.length > HEAD + TAIL
      ? `${joined.slice(0, HEAD)}\n[… ${joined.length - HEAD - TAIL} characters cut …]\n${joined.slice(-TAIL)}`
      : joined;
  const extraCut = Math.max(0, joined.length - HEAD - TAIL);
  return {
    ...last,
    output: {
      text: withOutput.length > 0 ? text : last.output.text,
      bytes: ticks.reduce((sum, tick) => sum + tick.output.bytes, 0),
      cutBytes: ticks.reduce((sum, tick) => sum + tick.output.cutBytes, 0) + extraCut,
      foldedLines: ticks.reduce((sum, tick) => sum + tick.output.foldedLines, 0),
      partialLine: last.output.partialLine,
    },
  };
}
