import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { HangbenchError } from '../../types/errors.js';

const MAX_SYMLINK_HOPS = 40;

function escape(path: string, workspace: string, why: string): HangbenchError {
  return new HangbenchError(
    'PATH_ESCAPE',
    `path "${path}" ${why}: paths must be relative to the workspace (${workspace}) and stay inside it`,
  );
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root + sep);
}

/**
 * Where `path` really leads, following every symlink like the kernel would, including dangling ones (writing
 * through a dangling link creates its target) and components that do not exist yet (writeFile creates them).
 */
async function physicalPath(path: string, hops: number): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    const real = join(await physicalPath(parent, hops), basename(path));
    let isLink: boolean;
    try {
      isLink = (await lstat(real)).isSymbolicLink();
    } catch {
      return real;
    }
    if (!isLink) return real;
    if (hops >= MAX_SYMLINK_HOPS) throw new Error('too many levels of symbolic links');
    return physicalPath(resolve(dirname(real), await readlink(real)), hops + 1);
  }
}

/**
 * Resolves an agent-supplied path to an absolute path inside `workspace` (a real path, no symlinks in it), or throws
 * HangbenchError('PATH_ESCAPE') for absolute paths, `..` that leaves the workspace, and symlinks that lead out.
 */
export async function confinePath(workspace: string, path: string): Promise<string> {
  if (path.includes('\0')) throw escape(path.replaceAll('\0', '\\0'), workspace, 'contains a NUL byte');
  if (isAbsolute(path)) throw escape(path, workspace, 'is absolute');
  const lexical = resolve(workspace, path);
  if (!inside(lexical, workspace)) throw escape(path, workspace, 'leaves the workspace through ..');
  let physical: string;
  try {
    physical = await physicalPath(lexical, 0);
  } catch (error) {
    throw escape(path, workspace, `cannot be resolved (${(error as Error).message})`);
  }
  if (!inside(physical, workspace)) {
    throw escape(path, workspace, `goes through a symlink to ${physical}, outside the workspace`);
  }
  return physical;
}
