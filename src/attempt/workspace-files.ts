import { readdir } from 'node:fs/promises';
import path from 'node:path';

const MAX_FILES = 200;

/** Relative paths of the workspace's files, for the agent's first observation. */
export async function listWorkspace(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort()
    .slice(0, MAX_FILES);
}
