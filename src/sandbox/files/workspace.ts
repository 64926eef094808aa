import {
  chmod,
  copyFile,
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readlink,
  realpath,
  rm,
  stat,
  symlink,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HangbenchError } from '../../types/errors.js';
import { confinePath } from './paths.js';

export interface AttemptDirs {
  /** temp dir holding the three below. */
  readonly root: string;
  readonly workspace: string;
  readonly home: string;
  readonly tmp: string;
}

/** A fresh copy of the fixture's workspace (modes and symlinks kept) with an empty home/ and tmp/ beside it. */
export async function prepareDirs(attemptId: string, workspaceSource: string): Promise<AttemptDirs> {
  const source = await stat(workspaceSource).catch(() => null);
  if (!source?.isDirectory()) {
    throw new HangbenchError('SANDBOX', `workspace source ${workspaceSource} is not a directory`);
  }
  const prefix = `hangbench-${attemptId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60)}-`;
  // realpath: confinement compares real paths, and tmpdir() may itself be a symlink (macOS /var → /private/var).
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const dirs = { root, workspace: join(root, 'workspace'), home: join(root, 'home'), tmp: join(root, 'tmp') };
  try {
    await cp(workspaceSource, dirs.workspace, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    await mkdir(dirs.home);
    await mkdir(dirs.tmp);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw new HangbenchError('SANDBOX', `could not copy ${workspaceSource} into ${dirs.workspace}`, { cause: error });
  }
  return dirs;
}

/**
 * Copies `sourceDir` over the workspace file by file. Each folder goes through confinePath, so a symlink the agent
 * planted in the workspace cannot redirect the copy outside it; whatever stands where a file goes (a symlink out, a
 * folder) is removed, not followed, so verify still gets its files.
 */
export async function overlayDir(workspace: string, sourceDir: string, relativeDir = ''): Promise<void> {
  const parent = await confinePath(workspace, relativeDir === '' ? '.' : relativeDir);
  for (const entry of await readdir(join(sourceDir, relativeDir), { withFileTypes: true })) {
    const rel = join(relativeDir, entry.name);
    const from = join(sourceDir, rel);
    const to = join(parent, entry.name);
    if (entry.isDirectory()) {
      if ((await lstat(to).catch(() => null))?.isDirectory() === false) await rm(to, { recursive: true, force: true });
      await mkdir(to, { recursive: true });
      await overlayDir(workspace, sourceDir, rel);
    } else if (entry.isSymbolicLink()) {
      await rm(to, { recursive: true, force: true });
      await symlink(await readlink(from), to);
    } else {
      await rm(to, { recursive: true, force: true });
      await copyFile(from, to);
      await chmod(to, (await stat(from)).mode & 0o7777);
    }
  }
}

/**
 * A fresh set of dirs beside the attempt's, for verify: a copy of the agent's final workspace (modes and symlinks kept;
 * FIFOs, sockets and devices a command made are left out, a copy cannot carry them) and an empty home/ and tmp/.
 */
export async function verifyDirs(dirs: AttemptDirs): Promise<AttemptDirs> {
  const root = join(dirs.root, 'verify');
  const copy = { root, workspace: join(root, 'workspace'), home: join(root, 'home'), tmp: join(root, 'tmp') };
  await mkdir(root);
  const regular = async (source: string): Promise<boolean> => {
    const info = await lstat(source);
    return info.isFile() || info.isDirectory() || info.isSymbolicLink();
  };
  await cp(dirs.workspace, copy.workspace, {
    recursive: true,
    verbatimSymlinks: true,
    preserveTimestamps: true,
    filter: regular,
  });
  await mkdir(copy.home);
  await mkdir(copy.tmp);
  return copy;
}

export async function removeDirs(dirs: AttemptDirs): Promise<void> {
  await rm(dirs.root, { recursive: true, force: true, maxRetries: 3 });
}
