import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, isSecretName, probeHost, scrubEnvironment } from '../../src/sandbox/index.js';

describe('probeHost', () => {
  it('probes once and says which mechanism, isolation and cgroup limits it chose', async () => {
    const caps = await probeHost();
    expect(await probeHost()).toBe(caps);
    expect(caps).toMatchObject({ platform: 'linux', proc: true, mechanism: 'cgroup-v2', processLimit: 'pids-cgroup' });
    expect(caps.cgroupRoot).toMatch(/\/hangbench$/);
    // This host has bubblewrap (and HANGBENCH_ISOLATION is not set): the probe ran a real command in a jail.
    expect(caps.isolation).toBe(process.env.HANGBENCH_ISOLATION === 'host-user' ? 'host-user' : 'bubblewrap');
    expect(caps.notes.join('\n')).toMatch(caps.isolation === 'bubblewrap' ? /isolation bubblewrap: .*uid 65534/ : /isolation host-user/);
    // A hybrid host: every controller is bound to a v1 hierarchy; a pure v2 host would say 'v2'.
    expect(caps.cgroupLimits).toEqual({ pids: 'v1', memory: 'v1', cpu: 'v1' });
    console.info(`host capabilities: ${JSON.stringify(caps)}`);
  });

  it('has defaults under which node and python3 run (measured in io.test.ts)', () => {
    expect(DEFAULT_LIMITS.addressSpaceBytes).toBe(32 * 1024 ** 3);
    expect(DEFAULT_LIMITS.nice).toBe(10);
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
    expect(Object.keys(env).sort()).toEqual(['HANGBENCH_ATTEMPT', 'HANGBENCH_COMMAND', 'HANGBENCH_TIME_SCALE', 'HOME', 'PYENV_ROOT', 'TMPDIR']);
    expect(env.PYENV_ROOT).toBe('/opt/pyenv');
    for (const name of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'FOO_SECRET', 'DB_PASSWORD']) expect(isSecretName(name)).toBe(true);
    expect(isSecretName('KEYBOARD')).toBe(false);
  });
});
