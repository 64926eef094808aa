/**
 * What a terminal's output says once the terminal has acted on its control sequences, as plain text: colours and
 * modes dropped, a cursor jump to a row taken as a new line (full-screen programs such as vim draw rows by
 * addressing them, not with newlines), `\r\n` made `\n`, a backspace taking back the character before it. A `\r`
 * on its own is kept: the line's visible part is what follows it (see visibleLine).
 */

/* eslint-disable no-control-regex */
const CURSOR_TO_ROW = /\x1b\[\d*(?:;\d*)?[Hf]/g;
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
/** DCS, SOS, PM and APC strings run to the string terminator. */
const STRING = /\x1b[PX^_][^\x1b]*(?:\x1b\\)?/g;
/** charset designation (`ESC ( B`), then any other two-byte escape (`ESC =`, `ESC >`, `ESC 7`). */
const DESIGNATE = /\x1b[ #%()*+\-./][\s\S]?/g;
const TWO_BYTE = /\x1b[\s\S]?/g;
const BACKSPACED = /[^\n\x08]\x08/g;
/** C0 controls a reader never wants to see (bell, shift in/out, …): everything but \t, \n, \r. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const NEEDS_WORK = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r\n/;
/* eslint-enable no-control-regex */

export function stripTerminalControls(text: string): string {
  // Most output of a pipe has nothing to strip: one native scan instead of ten replaces.
  if (!NEEDS_WORK.test(text)) return text;
  return text
    .replace(OSC, '')
    .replace(STRING, '')
    .replace(CURSOR_TO_ROW, '\n')
    .replace(CSI, '')
    .replace(DESIGNATE, '')
    .replace(TWO_BYTE, '')
    .replace(BACKSPACED, '')
    .replace(CONTROL, '')
    .replace(/\r+\n/g, '\n');
}
