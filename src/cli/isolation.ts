import { isolationWarning, probeHost, requireIsolation } from '../sandbox/index.js';
import { HangbenchError } from '../types/errors.js';
import type { ParsedArgs } from './args.js';
import type { CliIO } from './io.js';

/**
 * `--isolation auto|strict` for the commands that run sandboxes: strict refuses (exit 1, one line) on a host
 * without bubblewrap; auto runs anyway and says once, on stderr, what the run lacks. Null: go on.
 */
export async function checkIsolation(parsed: ParsedArgs, io: CliIO, command: string): Promise<number | null> {
  const isolation = parsed.string('isolation') ?? 'auto';
  if (isolation !== 'auto' && isolation !== 'strict')
    throw new HangbenchError('USAGE', `--isolation must be auto or strict, got "${isolation}"`);
  const host = await probeHost();
  try {
    requireIsolation(host, isolation);
  } catch (error) {
    io.stderr.write(`hangbench ${command}: ${(error as Error).message}\n`);
    return 1;
  }
  const warning = isolationWarning(host);
  if (warning !== null) io.stderr.write(`${warning}\n`);
  return null;
}
