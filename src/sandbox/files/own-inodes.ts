import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HangbenchError } from '../../types/errors.js';

/**
 * The files the harness itself put in the workspace (the copy, the agent's writes), by inode. A sandboxed command can
 * hard-link a file from outside into the workspace (`ln /etc/hostname x`): its path is inside, its inode is not ours,
 * and a write through it would change the outside file. Such a file has more than one link and an unknown inode.
 */
export class OwnInodes {
  readonly #known = new Set<string>();

  static async collect(dir: string): Promise<OwnInodes> {
    const inodes = new OwnInodes();
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) await inodes.add(join(entry.parentPath, entry.name));
    }
    return inodes;
  }

  async add(file: string): Promise<void> {
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) this.#known.add(`${info.dev}:${info.ino}`);
  }

  /** Throws PATH_ESCAPE for an existing file with other links whose inode the harness did not create. */
  async checkWritable(file: string, shown: string): Promise<void> {
    const info = await stat(file).catch(() => null);
    if (info === null || !info.isFile() || info.nlink <= 1 || this.#known.has(`${info.dev}:${info.ino}`)) return;
    throw new HangbenchError(
      'PATH_ESCAPE',
      `path "${shown}" is a hard link (${info.nlink} names) to a file that did not come from the workspace; writing would change it wherever it lives — remove it and write a new file instead`,
    );
  }
}
