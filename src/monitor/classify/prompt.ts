import { stripTerminalControls } from '../output/terminal-text.js';

/** Recognising a prompt in the unfinished last line of output. */

/**
 * Endings of questions that wait for an answer: `? `, `: `, `] `, `> `, `› `, `(Pdb) `, `[y/N]`,
 * shell `$ `/`# `. A progress bar (`68%`) or pytest dots (`....`) do not match.
 */
const PROMPT_END = /(?:[?:\]>›»$#]|\[[yn]\/[yn]\]|\(y(?:es)?\/n(?:o)?\)|\(pdb\))\s*$/i;

/**
 * What a terminal would show of the line: control sequences removed, only the text after the last `\r` (or the last
 * jump to a new row).
 */
export function visibleLine(line: string): string {
  const plain = stripTerminalControls(line).replace(/\r+$/, '');
  const start = Math.max(plain.lastIndexOf('\r'), plain.lastIndexOf('\n'));
  return start < 0 ? plain : plain.slice(start + 1);
}

export function looksLikePrompt(partialLine: string): boolean {
  const visible = visibleLine(partialLine);
  return visible.trim().length > 0 && PROMPT_END.test(visible);
}
