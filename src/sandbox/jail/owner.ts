import { lchown, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Who owns what the harness puts in a jail's writable dirs: the sandbox user when commands drop to it, else nobody changes. */
export interface Owner {
  readonly uid: number;
  readonly gid: number;
}

/** Gives `path` and everything under it to `owner` (lchown: a symlink is changed, never followed). */
export async function chownTree(path: string, owner: Owner | null): Promise<void> {
  if (owner === null) return;
  await lchown(path, owner.uid, owner.gid);
  const entries = await readdir(path, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) await lchown(join(entry.parentPath, entry.name), owner.uid, owner.gid);
}

/**
 * Gives a file the harness just wrote, and the folders mkdir made for it (`made`: the first of them), to `owner`,
 * deepest first: a folder stays the harness's until what is in it is done, so nothing can be swapped in underneath.
 */
export async function chownNew(file: string, made: string | undefined, owner: Owner | null): Promise<void> {
  if (owner === null) return;
  await lchown(file, owner.uid, owner.gid);
  if (made === undefined) return;
  for (let dir = dirname(file); dir.length >= made.length; dir = dirname(dir)) {
    await lchown(dir, owner.uid, owner.gid);
    if (dir === made) break;
  }
}
