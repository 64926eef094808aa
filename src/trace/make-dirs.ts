import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * `mkdir -p` with a bound: one mkdir per missing component, so a parent that refuses new folders (`/proc`, a
 * read-only or full filesystem) fails at once with its errno. Node's own `recursive: true` retries such an ENOENT
 * forever (it spins at full CPU on `/proc/nope`). With `within`, that folder must already exist: a results folder
 * removed mid-run is reported (ENOENT), not silently made again without its meta.json.
 */
export async function makeDirs(dir: string, within?: string): Promise<void> {
  const target = path.resolve(dir);
  const missing: string[] = [];
  for (let current = target; ; current = path.dirname(current)) {
    if (await isDirectory(current)) break;
    if (within !== undefined && current === path.resolve(within)) throw missingFolder(current);
    missing.push(current);
    if (path.dirname(current) === current) break;
  }
  for (const folder of missing.reverse()) {
    try {
      await mkdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && (await isDirectory(folder))) continue;
      throw error;
    }
  }
}

async function isDirectory(folder: string): Promise<boolean> {
  try {
    return (await stat(folder)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}

function missingFolder(folder: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file or directory, the folder ${folder} is gone`), {
    code: 'ENOENT',
    path: folder,
  });
}
