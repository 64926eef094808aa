import { z } from 'zod';

/** How a command's stdin/stdout are connected: pipes, or a pseudo-terminal (a case's `terminal: pty`). */
export const TERMINALS = ['pipe', 'pty'] as const;
export const TerminalSchema = z.enum(TERMINALS);
export type Terminal = (typeof TERMINALS)[number];
