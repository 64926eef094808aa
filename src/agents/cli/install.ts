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

/** Installs `package@version` once per cache (concurrent attempts share one install); a finished install is reused as is. */
export function installAdapter(adapter: Adapter, cache = agentCacheDir()): Promise<InstalledPackage | null> {
  if (adapter.package === undefined || adapter.version === undefined || adapter.bin === undefined)
    return Promise.resolve(null);
  const spec = `${adapter.package}@${adapter.version}`;
  const dir = path.join(cache, spec.replace('/', '+'));
  const bin = path.join('node_modules', '.bin', adapter.bin);
  const key = `${dir}\0${bin}`;
  let install = pending.get(key);
  if (!install) {
    install = installInto(spec, dir, bin);
    pending.set(key, install);
    install.catch(() => pending.delete(key));
  }
  return install;
}

async function installInto(spec: string, dir: string, bin: string): Promise<InstalledPackage> {
  if (existsSync(path.join(dir, bin))) return { dir, bin };
  const staging = `${dir}.installing-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await run(
      'npm',
      ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec],
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
  if (!existsSync(path.join(staging, bin))) {
    await rm(staging, { recursive: true, force: true });
    throw new HangbenchError('AGENT', `${spec} installed but has no ${bin}; fix the adapter's bin`);
  }
  // Another process may have finished the same install first: either copy is complete, keep the one in place.
  await rename(staging, dir).catch(async () => rm(staging, { recursive: true, force: true }));
  return { dir, bin };
}
