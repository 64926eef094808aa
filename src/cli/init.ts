import { cp, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HangbenchError } from '../types/errors.js';
import { INIT_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import { initHelp } from './help.js';
import type { CliIO } from './io.js';

/** `<package>/templates/init`: hangbench.config.yaml, cases/example-confirm-prompt.yaml and its fixture. */
const INIT_TEMPLATE_DIR = fileURLToPath(new URL('../../templates/init', import.meta.url));

export async function initCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals, help } = parseFlags(args, INIT_FLAGS);
  if (help) {
    io.stdout.write(`${initHelp()}\n`);
    return 0;
  }
  if (positionals.length > 1) throw new HangbenchError('USAGE', `init takes one folder, got ${positionals.length}`);
  const target = path.resolve(io.cwd, positionals[0] ?? '.');
  const files = await templateFiles(INIT_TEMPLATE_DIR);
  const existing = [];
  for (const file of files)
    if (
      await stat(path.join(target, file)).then(
        () => true,
        () => false,
      )
    )
      existing.push(file);
  if (existing.length > 0 && values.force !== true) {
    throw new HangbenchError(
      'USAGE',
      `${existing.join(', ')} already exist in ${target}; pass --force to overwrite them`,
    );
  }
  await cp(INIT_TEMPLATE_DIR, target, { recursive: true, force: true });
  for (const file of files) io.stdout.write(`wrote ${path.relative(io.cwd, path.join(target, file)) || file}\n`);
  const at = path.relative(io.cwd, target);
  const prefix = at === '' ? '' : `cd ${at} && `;
  io.stdout.write(
    [
      '',
      'Next:',
      `  ${prefix}npx hangbench check-cases                 prove the example case sound (its repro hangs, its check fails, the patch fixes it)`,
      `  ${prefix}npx hangbench eval --config hangbench.config.yaml   run the config's variants on your cases`,
      `  ${prefix}npx hangbench capture -- <command that hangs>   draft a case from a hang you hit`,
      '',
    ].join('\n'),
  );
  return 0;
}

async function templateFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? templateFiles(dir, path.join(prefix, entry.name))
        : Promise.resolve([path.join(prefix, entry.name)]),
    ),
  );
  return nested.flat().sort();
}
