import path from 'node:path';
import { startViewServer } from '../report/index.js';
import { HangbenchError } from '../types/errors.js';
import { numberFlag, parse } from './args.js';
import type { CliIO } from './io.js';
import { VIEW_HELP } from './reports-help.js';

/** Serves until the first Ctrl-C / SIGTERM (io.shutdown), then closes every connection and exits 0. */
export async function viewCommand(args: readonly string[], io: CliIO): Promise<number> {
  const parsed = parse(args, { port: { type: 'string' }, host: { type: 'string' } });
  if (parsed.help) {
    io.stdout.write(`${VIEW_HELP}\n`);
    return 0;
  }
  if (parsed.positionals.length > 1)
    throw new HangbenchError('USAGE', 'view takes one results folder (default: results)');
  const host = parsed.string('host') ?? '127.0.0.1';
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1')
    throw new HangbenchError(
      'USAGE',
      `--host ${host}: view serves traces and workspaces' output, so it listens on loopback only (127.0.0.1, ::1)`,
    );
  const port = numberFlag('port', parsed.string('port'), { integer: true, min: 0 }) ?? 0;
  const root = path.resolve(io.cwd, parsed.positionals[0] ?? 'results');
  const server = await startViewServer({ root, host, port });
  io.stdout.write(`hangbench view: ${server.url}/ (serving ${root}; Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    if (io.shutdown.aborted) resolve();
    io.shutdown.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  return 0;
}
