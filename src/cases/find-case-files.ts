import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const CASE_FILE = /\.ya?ml$/;

/** Expands paths, folders (recursively) and simple globs (`*`, `**`) into case files, sorted. Missing inputs are returned apart. */
export async function findCaseFiles(inputs: readonly string[], cwd: string): Promise<{ files: string[]; missing: string[] }> {
  const files = new Set<string>();
  const missing: string[] = [];
  for (const input of inputs) {
    const found = input.includes('*') ? await expandGlob(input, cwd) : await expandPath(path.resolve(cwd, input));
    if (found === null) missing.push(input);
    else found.forEach((file) => files.add(file));
  }
  return { files: [...files].sort(), missing };
}

async function expandPath(target: string): Promise<string[] | null> {
  const info = await stat(target).catch(() => null);
  // A dangling symlink exists as a name: loading it says it cannot be read, which is more useful than "no such file".
  if (info === null) return (await lstat(target).catch(() => null))?.isSymbolicLink() ? [target] : null;
  // Anything but a folder is a case file to load; loading says what is wrong with a FIFO or a device.
  if (!info.isDirectory()) return [target];
  return (await walk(target)).filter((file) => CASE_FILE.test(file));
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      // A symlinked case file counts (a dangling one is reported when loaded); symlinked folders are not followed.
      return entry.isDirectory() ? walk(full) : Promise.resolve(entry.isFile() || entry.isSymbolicLink() ? [full] : []);
    }),
  );
  return nested.flat();
}

async function expandGlob(pattern: string, cwd: string): Promise<string[] | null> {
  const absolute = path.resolve(cwd, pattern);
  const segments = absolute.split(path.sep);
  const firstWild = segments.findIndex((segment) => segment.includes('*'));
  const base = segments.slice(0, firstWild).join(path.sep) || path.sep;
  const matcher = globToRegExp(absolute);
  const all = await walk(base).catch(() => null);
  if (all === null) return null;
  const matched = all.filter((file) => matcher.test(file));
  return matched.length > 0 ? matched : null;
}

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      source += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
