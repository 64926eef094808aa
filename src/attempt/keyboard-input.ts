import type { ObservationBody } from '../agents/protocol.js';
import { keyBytes } from '../types/actions.js';
import type { CommandEntry } from './command-entry.js';
import { failure } from './observations.js';

/** Text, then keys as the terminal sends them, then end of input: closing a pipe, or ^D typed at a pty (which stays open). */
export function typeInput(
  target: CommandEntry,
  text: string | undefined,
  keys: readonly string[],
  eof: boolean,
): ObservationBody {
  if (target.process.stdin.writableEnded) return failure({ type: 'input' }, `stdin of #${target.id} is already closed`);
  const terminal = target.process.terminal ?? 'pipe';
  const context = { terminal, applicationCursor: target.monitor.applicationCursorKeys };
  const typed =
    (text ?? '') + keys.map((key) => keyBytes(key, context)).join('') + (eof && terminal === 'pty' ? '\x04' : '');
  if (typed !== '') target.process.stdin.write(typed);
  if (eof && terminal === 'pipe') target.process.stdin.end();
  const notes = [`sent ${Buffer.byteLength(typed)} bytes to #${target.id}`];
  if (eof) notes.push(terminal === 'pty' ? 'ending with ^D (end of input at the terminal)' : 'and closed its stdin');
  // Without a terminal there is no line discipline: an agent expecting Ctrl-C to interrupt should be told.
  if (terminal === 'pipe' && keys.some((key) => key === 'ctrl-c' || key === 'ctrl-z')) {
    notes.push(
      '(stdin is a pipe, not a terminal: control keys arrive as plain bytes and signal nothing; use kill to interrupt)',
    );
  }
  return { type: 'result', action: 'input', ok: true, message: notes.join(' ') };
}
