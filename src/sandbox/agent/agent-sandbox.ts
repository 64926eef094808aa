import { existsSync, statSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import { sandboxOwner } from '../jail/attempt-jail.js';
import { openBridge, type Bridge } from '../net/bridge.js';
import { startEgressProxy, type EgressProxy, type EgressRecord } from '../net/egress-proxy.js';
import { hiddenRoots, toolBinds, type Bind } from '../jail/jail-mounts.js';
import { Jail } from '../jail/jail.js';
import { chownTree } from '../jail/owner.js';
import type { HostCapabilities } from '../types.js';
import { DEFAULTS } from '../../defaults.js';

export interface AgentSandboxOptions {
  /** the agent's command line (`--cmd`); the files it names are bound into the sandbox read-only. */
  readonly command: string;
  /** where relative paths in `command` are looked up (the directory hangbench was started in). */
  readonly cwd: string;
  /** the variables the agent may have (named with --agent-env), already taken from the harness's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** the only hosts the egress proxy lets it reach (--agent-allow-host). */
  readonly allowHosts: readonly string[];
  readonly onEgress: (record: EgressRecord) => void;
  readonly capabilities: HostCapabilities;
}

/** Where and how to start an agent process so that it runs in a sandbox of its own. */
export interface AgentSandbox {
  /** argv to spawn: the jail's entry, then `/bin/sh -c command`. */
  readonly argv: [string, ...string[]];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** true under bubblewrap; false in the host-user fallback (own dirs and environment, but the host's view). */
  readonly jailed: boolean;
  /** the proxy URL the agent is given in HTTP(S)_PROXY. */
  readonly proxyUrl: string;
  /** Ends every process of the agent, the bridge, the proxy, and removes its directories. */
  stop(): Promise<void>;
}

const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The files a command line names (a script, a config): absolute ones bound where they are, relative ones copied under `at`. */
function namedFiles(command: string, cwd: string, at: string): Bind[] {
  const binds: Bind[] = [];
  for (const raw of command.split(/\s+/)) {
    const word = raw.replace(/^['"]|['"]$/g, '');
    if (word === '' || word.startsWith('-') || normalize(word).startsWith('..')) continue;
    const from = resolve(cwd, word);
    try {
      if (!statSync(from).isFile()) continue;
    } catch {
      continue;
    }
    binds.push({ from, to: isAbsolute(word) ? from : join(at, normalize(word)), writable: false });
  }
  return binds;
}

/** PATH entries the sandbox shows (toolchains outside the project), so `node` or `python3` resolve as on the host. */
function sandboxPath(tools: readonly Bind[]): string {
  const shown = (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => tools.some((bind) => dir === bind.to || dir.startsWith(`${bind.to}/`)));
  return [...shown, SAFE_PATH].join(':');
}

/**
 * The exec agent's own process in a bubblewrap sandbox of its own: an empty working directory and HOME, the files its
 * command names read-only, the toolchains read-only, none of the project, cases/, fixtures/, results/ or the harness's
 * processes; only the named variables; no network but the egress proxy, reached through a bridge at 127.0.0.1.
 */
export async function startAgentSandbox(options: AgentSandboxOptions): Promise<AgentSandbox> {
  const root = await mkdtemp(join(tmpdir(), 'hangbench-agent-'));
  const dirs = { cwd: join(root, 'agent'), home: join(root, 'home'), tmp: join(root, 'tmp') };
  for (const dir of Object.values(dirs)) await mkdir(dir);
  await chmod(root, 0o755);
  const jailed = options.capabilities.isolation === 'bubblewrap';
  let proxy: EgressProxy | null = null;
  let bridge: Bridge | null = null;
  let jail: Jail | null = null;
  const stop = async (): Promise<void> => {
    await jail?.stop(DEFAULTS.killGraces.afterKillMs);
    await bridge?.close();
    await proxy?.close();
    await rm(root, { recursive: true, force: true });
  };
  try {
    proxy = await startEgressProxy({ allow: options.allowHosts, onRequest: options.onEgress });
    const tools = toolBinds(process.env, hiddenRoots());
    const env = {
      ...options.env,
      PATH: sandboxPath(tools),
      HOME: dirs.home,
      TMPDIR: dirs.tmp,
      NO_PROXY: '',
      no_proxy: '',
    };
    const named = namedFiles(options.command, options.cwd, dirs.cwd).filter((bind) => existsSync(bind.from));
    // A bind under the agent's writable directory would be covered by it: relative files are copied in instead.
    for (const file of named.filter((bind) => bind.to.startsWith(`${dirs.cwd}/`))) {
      await mkdir(dirname(file.to), { recursive: true });
      await copyFile(file.from, file.to);
    }
    if (!jailed) {
      bridge = await openBridge(null, { socketPath: proxy.socketPath });
      const proxied = proxyEnv(bridge.url);
      return {
        argv: ['/bin/sh', '-c', options.command],
        cwd: dirs.cwd,
        env: { ...env, ...proxied },
        jailed,
        proxyUrl: bridge.url,
        stop,
      };
    }
    const own = Object.values(dirs).map((dir) => ({ from: dir, to: dir, writable: true }));
    const files = named.filter((bind) => !bind.to.startsWith(`${dirs.cwd}/`));
    await chownTree(root, sandboxOwner());
    jail = await Jail.start({
      binds: [...tools, ...files, ...own],
      hide: hiddenRoots(),
      cwd: dirs.cwd,
      network: true,
      root: sandboxOwner() !== null,
    });
    bridge = await openBridge(jail.enterPrefix(), { socketPath: proxy.socketPath });
    return {
      argv: [...jail.enterPrefix(), '/bin/sh', '-c', options.command],
      cwd: dirs.cwd,
      env: { ...env, ...proxyEnv(bridge.url) },
      jailed,
      proxyUrl: bridge.url,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function proxyEnv(url: string): Record<string, string> {
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, ALL_PROXY: url };
}
