import { DEFAULTS } from '../defaults.js';
import { isolationWarning, probeHost, requireIsolation } from '../sandbox/index.js';
import type { CliIO } from './io.js';

/**
 * `--isolation auto|strict` for the commands that run sandboxes: strict refuses (exit 1, one line) on a host
 * without bubblewrap; auto runs anyway and says once, on stderr, what the run lacks. Null: go on.
 */
export async function checkIsolation(
  isolation: 'auto' | 'strict' | undefined,
  io: CliIO,
  command: string,
): Promise<number | null> {
  const host = await probeHost();
  try {
    requireIsolation(host, isolation ?? DEFAULTS.isolation);
  } catch (error) {
    io.stderr.write(`hangbench ${command}: ${(error as Error).message}\n`);
    return 1;
  }
  const warning = isolationWarning(host);
  if (warning !== null) io.stderr.write(`${warning}\n`);
  return null;
}
