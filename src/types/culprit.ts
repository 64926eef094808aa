import { z } from 'zod';

/** A pattern: `/regex/flags`, or for `command` the exact name (comm), for `args` a literal substring of the command line. */
const PatternSchema = z
  .string()
  .min(1)
  .refine((pattern) => compile(pattern) !== undefined, {
    message: 'not a valid /regex/: fix the expression or drop the slashes for a literal',
  });

export const CulpritSchema = z
  .strictObject({
    command: PatternSchema.optional().describe('the process name (comm, e.g. python3), exactly, or a /regex/'),
    args: PatternSchema.optional().describe('its command line: a literal substring, or a /regex/'),
  })
  .refine((culprit) => culprit.command !== undefined || culprit.args !== undefined, {
    message: 'give command, args, or both',
  })
  .describe('the process a correct diagnosis names');

export type Culprit = z.infer<typeof CulpritSchema>;

/** Whether a sampled process (its comm and command line) is the one the culprit matcher describes. */
export function matchesCulprit(
  culprit: Culprit,
  process: { readonly command: string; readonly args: string },
): boolean {
  if (culprit.command !== undefined && !test(culprit.command, process.command, true)) return false;
  if (culprit.args !== undefined && !test(culprit.args, process.args, false)) return false;
  return true;
}

function test(pattern: string, text: string, exact: boolean): boolean {
  const regex = compile(pattern);
  if (regex) return regex.test(text);
  return exact ? text === pattern : text.includes(pattern);
}

/** null for a literal, undefined for a broken regex. */
function compile(pattern: string): RegExp | null | undefined {
  const parts = /^\/(.*)\/([imsu]*)$/s.exec(pattern);
  if (!parts) return null;
  try {
    return new RegExp(parts[1] ?? '', parts[2]);
  } catch {
    return undefined;
  }
}
