/** Recognising a prompt in the unfinished last line of output. */

// CSI and OSC escape sequences (colours, cursor moves) that terminal programs mix into prompts.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]/g;

/**
 * Endings of questions that wait for an answer: `? `, `: `, `] `, `> `, `› `, `(Pdb) `, `[y/N]`,
 * shell `$ `/`# `. A progress bar (`68%`) or pytest dots (`....`) do not match.
 */
const PROMPT_END = /(?:[?:\]>›»$#]|\[[yn]\/[yn]\]|\(y(?:es)?\/n(?:o)?\)|\(pdb\))\s*$/i;

/** What a terminal would show of the line: escape sequences removed, only the text after the last `\r`. */
export function visibleLine(line: string): string {
  const plain = line.replace(ANSI, '').replace(/\r+$/, '');
  const carriage = plain.lastIndexOf('\r');
  return carriage < 0 ? plain : plain.slice(carriage + 1);
}

export function looksLikePrompt(partialLine: string): boolean {
  const visible = visibleLine(partialLine);
  return visible.trim().length > 0 && PROMPT_END.test(visible);
}
