import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The system a sandboxed command may read: what `bash`, coreutils, git, python3, node and util-linux need. */
const SYSTEM_DIRS = ['/usr', '/etc', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/** One directory bound into the sandbox: `from` on the host appears at `to` inside, read-only unless `writable`. */
export interface Bind {
  readonly from: string;
  readonly to: string;
  readonly writable: boolean;
}

/** The directories of the harness no sandbox may see, whatever PATH or a tool root points into. */
export function hiddenRoots(): string[] {
  const packageRoot = fileURLToPath(new URL('../../..', import.meta.url));
  return [...new Set([packageRoot, process.cwd(), process.env.HOME ?? homedir()].map((dir) => realOr(dir)))];
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function systemCovers(path: string): boolean {
  return SYSTEM_DIRS.some((dir) => within(path, dir));
}

/**
 * Toolchains outside the system directories that fixtures run: the pyenv root (python3 here is a pyenv shim under the
 * harness's HOME), the Node installation (nvm, setup-node's tool cache) and the PATH entries outside every hidden root.
 * A tool root inside HOME is bound by itself, never HOME with it.
 */
export function toolBinds(env: Readonly<Record<string, string | undefined>>, hidden: readonly string[]): Bind[] {
  const pyenv = env.PYENV_ROOT ?? join(env.HOME ?? homedir(), '.pyenv');
  const nodePrefix = dirname(dirname(realOr(process.execPath)));
  const roots = [pyenv, nodePrefix].filter((dir) => existsSync(dir)).map(realOr);
  const pathEntries = (env.PATH ?? '')
    .split(':')
    .filter((dir) => isAbsolute(dir) && existsSync(dir))
    .map(realOr)
    .filter((dir) => !hidden.some((root) => within(dir, root) || within(root, dir)));
  const chosen: string[] = [];
  for (const dir of [...roots, ...pathEntries].sort((a, b) => a.length - b.length)) {
    if (dir === '/' || systemCovers(dir) || chosen.some((kept) => within(dir, kept))) continue;
    chosen.push(dir);
  }
  return chosen.map((dir) => ({ from: dir, to: dir, writable: false }));
}

/** bwrap arguments that recreate the read-only system: real directories bound, merged-/usr symlinks recreated. */
function systemArgs(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    let info;
    try {
      info = lstatSync(dir);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (info.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  return args;
}

/** `--dir` for every missing parent of `path` (mode 0755), so a bind under /root stays reachable by the sandbox user. */
function parentDirs(path: string, made: Set<string>): string[] {
  const args: string[] = [];
  const parents: string[] = [];
  for (let dir = dirname(path); dir !== '/' && !made.has(dir); dir = dirname(dir)) parents.unshift(dir);
  for (const dir of parents) {
    if (systemCovers(dir) || dir === '/tmp') continue;
    made.add(dir);
    args.push('--perms', '0755', '--dir', dir);
  }
  return args;
}

/**
 * The mount arguments of one sandbox: the system, /proc, /dev (own devpts and /dev/shm), a private /tmp, the tools read-only, an empty tmpfs over
 * every `hide` path a read-only bind would show (a project under /usr/src, a global install's fixtures), then the
 * attempt's own writable dirs.
 */
export function mountArgs(binds: readonly Bind[], hide: readonly string[]): string[] {
  const made = new Set<string>();
  // /dev/shm writable by all: python's multiprocessing locks and queues live there.
  const args = [
    ...systemArgs(),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--perms',
    '1777',
    '--tmpfs',
    '/dev/shm',
    '--perms',
    '1777',
    '--tmpfs',
    '/tmp',
  ];
  const readOnly = binds.filter((bind) => !bind.writable);
  for (const bind of readOnly) args.push(...parentDirs(bind.to, made), '--ro-bind', bind.from, bind.to);
  for (const path of new Set(hide.map(realOr))) {
    const shown = systemCovers(path) || readOnly.some((bind) => within(path, bind.from));
    if (shown && existsSync(path)) args.push('--tmpfs', path);
  }
  for (const bind of binds.filter((entry) => entry.writable))
    args.push(...parentDirs(bind.to, made), '--bind', bind.from, bind.to);
  return args;
}
