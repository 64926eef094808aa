import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { HangbenchError } from '../../types/errors.js';
import type { Adapter } from './adapter.js';

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** An adapter's package, installed: the folder bound read-only into each sandbox, and its executable within it. */
export interface InstalledPackage {
  readonly dir: string;
  /** the executable relative to `dir` (node_modules/.bin/<bin>). */
  readonly bin: string;
}

/** `$HANGBENCH_AGENT_CACHE`, else `$XDG_CACHE_HOME/hangbench/agents`, else `~/.cache/hangbench/agents`: outside the project and every sandbox. */
export function agentCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.HANGBENCH_AGENT_CACHE) return path.resolve(env.HANGBENCH_AGENT_CACHE);
  return path.join(
    env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(homedir(), '.cache'),
    'hangbench',
    'agents',
  );
}

const pending = new Map<string, Promise<InstalledPackage>>();

/** What `npm install` is given for an adapter: its package, and the Node.js it pins (`node:`) when it has one. */
export function installSpecs(adapter: Adapter, arch: string = process.arch): string[] {
  if (adapter.package === undefined || adapter.version === undefined) return [];
  const spec = `${adapter.package}@${adapter.version}`;
  return adapter.node === undefined ? [spec] : [spec, `node-linux-${arch}@${adapter.node}`];
}

/** The adapter's folder in the cache: `<package>@<version>` (`/` as `+`), and `+node@<version>` with a pinned Node.js. */
export function installDirName(adapter: Adapter): string {
  const [spec = '', node] = installSpecs(adapter);
  return `${spec.replace('/', '+')}${node === undefined ? '' : `+node@${adapter.node}`}`;
}

/** Installs `package@version` once per cache (concurrent attempts share one install); a finished install is reused as is. */
export function installAdapter(adapter: Adapter, cache = agentCacheDir()): Promise<InstalledPackage | null> {
  if (adapter.package === undefined || adapter.version === undefined || adapter.bin === undefined)
    return Promise.resolve(null);
  const specs = installSpecs(adapter);
  const dir = path.join(cache, installDirName(adapter));
  const bin = path.join('node_modules', '.bin', adapter.bin);
  const key = `${dir}\0${bin}`;
  let install = pending.get(key);
  if (!install) {
    const needed = adapter.node === undefined ? [bin] : [bin, path.join('node_modules', '.bin', 'node')];
    install = installInto(specs, dir, needed);
    pending.set(key, install);
    install.catch(() => pending.delete(key));
  }
  return install;
}

async function installInto(
  specs: readonly string[],
  dir: string,
  needed: readonly string[],
): Promise<InstalledPackage> {
  const spec = specs.join(' ');
  const bin = needed[0]!;
  if (needed.every((file) => existsSync(path.join(dir, file)))) return { dir, bin };
  const staging = `${dir}.installing-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await run(
      'npm',
      ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', ...specs],
      { timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const detail = ((error as { stderr?: string }).stderr ?? (error as Error).message)
      .trim()
      .split('\n')
      .slice(-3)
      .join(' ');
    throw new HangbenchError(
      'AGENT',
      `could not install ${spec} into ${path.dirname(dir)} with npm: ${detail}; check the npm registry is reachable, or set HANGBENCH_AGENT_CACHE to a cache that has it`,
      { cause: error },
    );
  }
  const missing = needed.find((file) => !existsSync(path.join(staging, file)));
  if (missing !== undefined) {
    await rm(staging, { recursive: true, force: true });
    throw new HangbenchError('AGENT', `${spec} installed but has no ${missing}; fix the adapter's bin or node`);
  }
  // Another process may have finished the same install first: either copy is complete, keep the one in place.
  await rename(staging, dir).catch(async () => rm(staging, { recursive: true, force: true }));
  return { dir, bin };
}
