import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/defaults.js';
import { isSecretName, probeHost, pyenvVersionBin, scrubEnvironment } from '../../src/sandbox/index.js';
import { requireCgroup } from '../support/capability.js';

/** The options of the read-write cgroup2 mount that `dir` lies under, from /proc/self/mounts (not the probe's code). */
function cgroup2MountHolding(dir: string): string | undefined {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .find(([, mountPoint, type]) => type === 'cgroup2' && dir.startsWith(`${mountPoint}/`))?.[3];
}

describe('probeHost', () => {
  it('probes once and says which mechanism, isolation and cgroup limits it chose', async () => {
    const caps = await probeHost();
    expect(await probeHost()).toBe(caps);
    expect(caps).toMatchObject({ platform: 'linux', proc: true });
    // This host has bubblewrap (and HANGBENCH_ISOLATION is not set): the probe ran a real command in a jail.
    expect(caps.isolation).toBe(process.env.HANGBENCH_ISOLATION === 'host-user' ? 'host-user' : 'bubblewrap');
    expect(caps.notes.join('\n')).toMatch(
      caps.isolation === 'bubblewrap' ? /isolation bubblewrap: .*uid 65534/ : /isolation host-user/,
    );
    console.info(`host capabilities: ${JSON.stringify(caps)}`);
  });

  // What follows from the probe's answer, whichever shape this host has; host-shapes.test.ts forces the other shapes.
  it('kills through a cgroup v2 exactly when it found one it could write, with cgroup.kill in it', async () => {
    const caps = await probeHost();
    // meta.json's mechanism is the one the attempts' kills use: cgroup.kill, else the jail's per-command namespaces
    expect(caps.mechanism).toBe(
      caps.cgroupRoot !== null ? 'cgroup-v2' : caps.isolation === 'bubblewrap' ? 'pid-namespace' : 'process-group+scan',
    );
    if (caps.mechanism === 'pid-namespace')
      expect(caps.notes.join('\n')).toMatch(
        /no writable cgroup v2 with cgroup\.kill: each command in a user namespace of its own/,
      );
    if (caps.mechanism === 'process-group+scan')
      expect(caps.notes.join('\n')).toMatch(/no writable cgroup v2 with cgroup\.kill: killing by process group/);
    if (caps.cgroupRoot !== null) expect(cgroup2MountHolding(caps.cgroupRoot)).toMatch(/\brw\b/);
  });

  it('bounds each limit by the hierarchy that holds its controller, and processes by pids.max or, not as root, RLIMIT_NPROC', async () => {
    const caps = await probeHost();
    const v1Roots = { pids: caps.pidsCgroupRoot, memory: caps.memoryCgroupRoot, cpu: caps.cpuCgroupRoot };
    const v2Enabled =
      caps.cgroupRoot === null
        ? []
        : readFileSync(join(caps.cgroupRoot, 'cgroup.subtree_control'), 'utf8').trim().split(/\s+/);
    for (const controller of ['pids', 'memory', 'cpu'] as const) {
      const expected = v1Roots[controller] !== null ? 'v1' : v2Enabled.includes(controller) ? 'v2' : null;
      expect({ controller, version: caps.cgroupLimits[controller] }).toEqual({ controller, version: expected });
    }
    const isRoot = process.getuid?.() === 0;
    expect(caps.processLimit).toBe(caps.cgroupLimits.pids !== null ? 'pids-cgroup' : isRoot ? 'none' : 'rlimit');
  });

  it('finds a writable cgroup where the harness is meant to (root on the CI machine)', async (ctx) => {
    const caps = await probeHost();
    requireCgroup(ctx, caps.cgroupRoot !== null, caps.notes.filter((note) => note.includes('not usable')).join('; '));
    expect(caps.cgroupRoot).toMatch(/\/hangbench$/);
    expect(existsSync(caps.cgroupRoot!)).toBe(true);
  });

  it('has defaults under which node and python3 run (measured in io.test.ts)', () => {
    expect(DEFAULTS.limits.addressSpaceBytes).toBe(32 * 1024 ** 3);
    expect(DEFAULTS.limits.nice).toBe(10);
  });
});

describe('scrubEnvironment', () => {
  const base = {
    home: '/sb/home',
    tmp: '/sb/tmp',
    timeScale: 0.1,
    attemptId: 'a/b/1',
    commandId: 3,
    pyenvRoot: '/root/.pyenv',
  };

  it('keeps the allowlist, drops the rest, and puts HOME, TMPDIR and markers last', () => {
    const env = scrubEnvironment({
      ...base,
      host: { PATH: '/bin', LC_ALL: 'C.UTF-8', LANG: 'C', NODE_OPTIONS: '--inspect', HOME: '/root', EDITOR: 'vi' },
      extra: { HOME: '/elsewhere', HANGBENCH_ATTEMPT: 'forged', VERIFY: '1' },
    });
    expect(env).toEqual({
      PATH: '/bin',
      LC_ALL: 'C.UTF-8',
      LANG: 'C',
      PYENV_ROOT: '/root/.pyenv',
      VERIFY: '1',
      HOME: '/sb/home',
      TMPDIR: '/sb/tmp',
      HANGBENCH_TIME_SCALE: '0.1',
      HANGBENCH_ATTEMPT: 'a/b/1',
      HANGBENCH_COMMAND: '3',
    });
  });

  it('never passes a secret, even one that looks allowlisted or comes through extra', () => {
    const env = scrubEnvironment({
      ...base,
      host: { LC_API_KEY: 'x', OPENAI_BASE_URL: 'x', PYENV_ROOT: '/opt/pyenv' },
      extra: { AWS_SECRET: 'x', NPM_TOKEN: 'x', SSH_KEY: 'x', MY_PASSWORD_FILE: 'x', openai_org: 'x' },
    });
    expect(Object.keys(env).sort()).toEqual([
      'HANGBENCH_ATTEMPT',
      'HANGBENCH_COMMAND',
      'HANGBENCH_TIME_SCALE',
      'HOME',
      'PYENV_ROOT',
      'TMPDIR',
    ]);
    expect(env.PYENV_ROOT).toBe('/opt/pyenv');
    for (const name of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'FOO_SECRET', 'DB_PASSWORD'])
      expect(isSecretName(name)).toBe(true);
    expect(isSecretName('KEYBOARD')).toBe(false);
  });
});

describe('pyenvVersionBin: the interpreter pyenv would pick goes first on the sandbox PATH', () => {
  it("is the selected version's bin folder when the shims are on PATH, else null", async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'hangbench-pyenv-'));
    try {
      const bin = path.join(root, 'versions', '3.11.7', 'bin');
      await mkdir(bin, { recursive: true });
      await writeFile(path.join(bin, 'python3'), '');
      await writeFile(path.join(root, 'version'), '3.11.7\n');
      const shims = `/usr/bin:${path.join(root, 'shims')}`;
      expect(pyenvVersionBin({ PATH: shims }, root)).toBe(bin);
      expect(pyenvVersionBin({ PATH: shims, PYENV_ROOT: root }, null)).toBe(bin);
      expect(pyenvVersionBin({ PATH: '/usr/bin' }, root), 'no shims on PATH: nothing to skip').toBeNull();
      expect(pyenvVersionBin({ PATH: shims, PYENV_VERSION: 'system' }, root)).toBeNull();
      expect(pyenvVersionBin({ PATH: shims, PYENV_VERSION: '3.12.0' }, root), 'a version not installed').toBeNull();
      expect(
        scrubEnvironment({
          home: '/h',
          tmp: '/t',
          timeScale: 1,
          attemptId: 'a',
          commandId: 1,
          pyenvRoot: root,
          pathFirst: bin,
          host: { PATH: shims },
        }).PATH,
      ).toBe(`${bin}:${shims}`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
