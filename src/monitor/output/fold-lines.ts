import { visibleLine } from '../classify/prompt.js';
import { stripTerminalControls } from './terminal-text.js';

/** Shortening a bounded window of text for a reader: `\r` overwrites resolved, repeated lines folded. */

/** Runs of at least this many identical lines are folded (two lines are cheaper shown than folded). */
const MIN_RUN = 3;

export interface FoldedText {
  readonly text: string;
  /** lines replaced by `… (line repeated N more times)` markers. */
  readonly foldedLines: number;
  /** lines in the window before folding. */
  readonly lines: number;
}

/**
 * Folds identical consecutive lines into the first one plus a marker, after terminal control sequences are
 * stripped. A line rewritten with `\r` (a progress bar) shows only its last state, as a terminal would.
 */
export function foldLines(raw: string): FoldedText {
  const text = stripTerminalControls(raw);
  const endsComplete = text.endsWith('\n');
  const split = text.split('\n');
  if (endsComplete) split.pop();
  const partial = endsComplete ? null : (split.pop() ?? null);
  const lines = split.map(visibleLine);
  const out: string[] = [];
  let folded = 0;
  for (let i = 0; i < lines.length;) {
    let run = 1;
    while (i + run < lines.length && lines[i + run] === lines[i]) run++;
    const line = lines[i]!;
    if (run >= MIN_RUN) {
      out.push(line, `… (line repeated ${run - 1} more time${run - 1 === 1 ? '' : 's'})`);
      folded += run - 1;
    } else {
      for (let k = 0; k < run; k++) out.push(line);
    }
    i += run;
  }
  if (partial !== null) out.push(visibleLine(partial));
  const body = out.join('\n') + (endsComplete && out.length > 0 ? '\n' : '');
  return { text: body, foldedLines: folded, lines: lines.length + (partial === null ? 0 : 1) };
}
