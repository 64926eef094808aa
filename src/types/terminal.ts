import { z } from 'zod';

/** How a command's stdin/stdout are connected: pipes, or a pseudo-terminal (a case's `terminal: pty`). */
export const TERMINALS = ['pipe', 'pty'] as const;
export const TerminalSchema = z.enum(TERMINALS);
export type Terminal = (typeof TERMINALS)[number];

/**
 * How the agent's commands get their stdin (the `--stdin` variant axis; absent: as the case declares): an open pipe,
 * `/dev/null`, or a pseudo-terminal. A prompt that hangs on an open pipe takes its default on `/dev/null`.
 */
export const STDIN_WIRINGS = ['pipe', 'null', 'tty'] as const;
export const StdinWiringSchema = z.enum(STDIN_WIRINGS);
export type StdinWiring = (typeof STDIN_WIRINGS)[number];

/** The terminal of a case's command and whether its stdin is `/dev/null`, under a wiring (undefined: the case's own). */
export function wiredTerminal(
  wiring: StdinWiring | undefined,
  caseTerminal: Terminal,
): { readonly terminal: Terminal; readonly stdinNull: boolean } {
  if (wiring === undefined) return { terminal: caseTerminal, stdinNull: false };
  return { terminal: wiring === 'tty' ? 'pty' : 'pipe', stdinNull: wiring === 'null' };
}
