import { cp, lstat, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { HangbenchError } from '../types/errors.js';

export interface StagedWorkspace {
  /** a temp folder holding the copy; the caller removes it. */
  readonly dir: string;
  readonly files: readonly string[];
  readonly from: 'git' | 'include';
}

/** Copies what the hang needs from `cwd` into a temp folder: the listed paths, else every git-tracked file. */
export async function stageWorkspace(cwd: string, include: readonly string[] | undefined): Promise<StagedWorkspace> {
  const files = include ?? (await gitTrackedFiles(cwd));
  const dir = await mkdtemp(path.join(tmpdir(), 'hangbench-capture-'));
  for (const file of files) {
    const source = path.resolve(cwd, file);
    const relative = path.relative(cwd, source);
    if (relative.startsWith('..') || path.isAbsolute(relative))
      throw new HangbenchError('USAGE', `--include ${file}: outside the working folder; list files inside it`);
    const info = await lstat(source).catch(() => null);
    if (info === null)
      throw new HangbenchError('USAGE', `${include ? '--include ' : 'git-tracked '}${file}: no such file or folder`);
    await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await cp(source, path.join(dir, relative), { recursive: true, verbatimSymlinks: true });
  }
  return { dir, files, from: include ? 'include' : 'git' };
}

async function gitTrackedFiles(cwd: string): Promise<string[]> {
  const listed = await execa('git', ['ls-files', '-z', '--cached', '--', '.'], { cwd, reject: false });
  if (listed.exitCode !== 0) {
    throw new HangbenchError(
      'USAGE',
      `${cwd} is not a git checkout (${listed.stderr.trim().split('\n')[0] ?? ''}); list what the command needs with --include FILE,DIR`,
    );
  }
  // A tracked file deleted in the work tree is not there to copy.
  const files = listed.stdout.split('\0').filter((file) => file !== '');
  const present = await Promise.all(
    files.map((file) =>
      lstat(path.join(cwd, file)).then(
        () => file,
        () => null,
      ),
    ),
  );
  const kept = present.filter((file): file is string => file !== null);
  if (kept.length === 0)
    throw new HangbenchError(
      'USAGE',
      `no git-tracked files in ${cwd}; commit them, or list what the command needs with --include FILE,DIR`,
    );
  return kept;
}
