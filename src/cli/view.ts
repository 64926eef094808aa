import path from 'node:path';
import { startViewServer } from '../report/index.js';
import { HangbenchError } from '../types/errors.js';
import { DEFAULTS } from '../defaults.js';
import { VIEW_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import type { CliIO } from './io.js';
import { viewHelp } from './reports-help.js';

/** Serves until the first Ctrl-C / SIGTERM (io.shutdown), then closes every connection and exits 0. */
export async function viewCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, VIEW_FLAGS);
  if (help) {
    io.stdout.write(`${viewHelp()}\n`);
    return 0;
  }
  if (positionals.length > 1)
    throw new HangbenchError('USAGE', `view takes one results folder (default: ${DEFAULTS.out})`);
  const host = values.host ?? DEFAULTS.viewHost;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1')
    throw new HangbenchError(
      'USAGE',
      `--host ${host}: view serves traces and workspaces' output, so it listens on loopback only (127.0.0.1, ::1)`,
    );
  const port = values.port ?? DEFAULTS.viewPort;
  const root = path.resolve(io.cwd, positionals[0] ?? DEFAULTS.out);
  const server = await startViewServer({ root, host, port });
  io.stdout.write(`hangbench view: ${server.url}/ (serving ${root}; Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    if (io.shutdown.aborted) resolve();
    io.shutdown.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  return 0;
}
