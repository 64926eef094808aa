import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { execa } from 'execa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requireCapability, requireCgroup } from './capability.js';
import { inCi } from './ci.js';
import { currentUser, EXPECTED_SKIPS, isExpectedSkip, type SeenSkip } from './expected-skips.js';

const root = path.resolve(import.meta.dirname, '../..');

/** A test context that records the skip it is asked for instead of skipping. */
function fakeContext() {
  const skips: Array<string | undefined> = [];
  const ctx = {
    skip: (condition?: boolean | string, note?: string) => {
      if (typeof condition === 'string') skips.push(condition);
      else if (condition !== false) skips.push(note);
    },
  } as Parameters<typeof requireCapability>[0];
  return { ctx, skips };
}

describe('in CI: any non-empty CI but false or 0', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is on for true, 1, yes and a service name, in any case; off when unset, empty, false or 0', () => {
    for (const value of ['true', 'TRUE', '1', 'yes', 'Yes', 'woodpecker'])
      expect([value, inCi(value)]).toEqual([value, true]);
    for (const value of ['', ' ', 'false', 'False', '0']) expect([value, inCi(value)]).toEqual([value, false]);
    // unset: read from the environment (this suite itself may run under CI=true)
    const inherited = process.env.CI;
    delete process.env.CI;
    try {
      expect(inCi()).toBe(false);
    } finally {
      if (inherited !== undefined) process.env.CI = inherited;
    }
  });

  it('.ci/run turns it on whatever CI it inherits, so CI=yes, CI=false or none all run the guard', async () => {
    const script = await readFile(path.join(root, '.ci/run'), 'utf8');
    const lines = script.split('\n').filter((line) => /^\s*(export\s+)?CI=/.test(line));
    expect(lines).toHaveLength(1);
    for (const inherited of [undefined, '', 'yes', 'false', '0', 'true']) {
      const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
      if (inherited !== undefined) env.CI = inherited;
      const { stdout } = await promisify(execFile)('bash', ['-c', `set -eu; ${lines[0]}; printf %s "$CI"`], { env });
      expect([inherited, inCi(stdout)]).toEqual([inherited, true]);
    }
  });

  it('a missing capability skips with the reason and the install step outside CI, and fails the test in CI', () => {
    vi.stubEnv('CI', '');
    const outside = fakeContext();
    requireCapability(outside.ctx, 'vim', false, 'the editor');
    expect(outside.skips).toEqual(['needs vim (the editor): vim (`apt-get install vim`)']);
    requireCapability(outside.ctx, 'vim', true);
    expect(outside.skips).toHaveLength(1);

    for (const value of ['yes', 'true', '1']) {
      vi.stubEnv('CI', value);
      const inside = fakeContext();
      expect(() => requireCapability(inside.ctx, 'bubblewrap', false)).toThrow(
        `CI=${value} and this machine lacks a capability CI is meant to have: needs bubblewrap`,
      );
      expect(inside.skips).toEqual([]);
      requireCapability(inside.ctx, 'bubblewrap', true);
    }
    vi.stubEnv('CI', 'false');
    const off = fakeContext();
    requireCapability(off.ctx, 'bubblewrap', false);
    expect(off.skips).toHaveLength(1);
  });

  it('a writable cgroup is a CI capability for root only; for any other user its absence is a host shape', () => {
    vi.stubEnv('CI', 'yes');
    const { ctx, skips } = fakeContext();
    if (currentUser() === 'root') {
      expect(() => requireCgroup(ctx, false, 'a memory controller')).toThrow('needs writable cgroup');
    } else {
      requireCgroup(ctx, false, 'a memory controller');
      expect(skips).toEqual([
        "host shape: applies only where a memory controller, which a non-root user has only in a delegated cgroup subtree; the test of this host's branch ran instead",
      ]);
    }
  });
});

describe('the expected skips: file, test, user and reason', () => {
  const listed = EXPECTED_SKIPS[0]!;
  const seen = (fields: Partial<SeenSkip> = {}): SeenSkip => ({
    file: listed.file,
    test: listed.test,
    note: "host shape: applies only where bubblewrap cannot run (test/sandbox/host-shapes.test.ts forces that shape); the test of this host's branch ran instead",
    user: 'root',
    ...fields,
  });

  it('accepts a listed skip only for its users and a note its pattern matches', () => {
    expect(isExpectedSkip(seen())).toBe(true);
    expect(isExpectedSkip(seen({ user: 'non-root' }))).toBe(true);
    expect(isExpectedSkip(seen({ note: 'needs bubblewrap: bubblewrap that runs' }))).toBe(false);
    expect(isExpectedSkip(seen({ note: undefined }))).toBe(false);
    expect(isExpectedSkip(seen({ test: `${listed.test}!` }))).toBe(false);
    expect(isExpectedSkip(seen({ file: 'test/hostile/other.test.ts' }))).toBe(false);
    const rootOnly = EXPECTED_SKIPS.find((skip) => skip.test.endsWith('names a setuid bwrap before trying it'))!;
    const setuid = { file: rootOnly.file, test: rootOnly.test };
    const note =
      "host shape: applies only where the harness is root: making a setuid copy of bwrap needs root; the test of this host's branch ran instead";
    expect(isExpectedSkip({ ...setuid, note, user: 'non-root' })).toBe(true);
    // as root that test runs: a skip there is a fault, not the listed host shape
    expect(isExpectedSkip({ ...setuid, note, user: 'root' })).toBe(false);
  });

  it('lists only tests that exist, each with the users it skips for and a reason', async () => {
    for (const skip of EXPECTED_SKIPS) {
      expect(existsSync(path.join(root, skip.file)), skip.file).toBe(true);
      const source = await readFile(path.join(root, skip.file), 'utf8');
      // the test's own name (after the last describe) is in its file
      expect(source, skip.test).toContain(skip.test.split(' > ').at(-1));
      expect(skip.users.length).toBeGreaterThan(0);
      expect(skip.reason).not.toBe('');
    }
  });
});

describe('the skip reporter, in a vitest run of its own over one skip of each kind', () => {
  async function runFixture(ci: string | undefined) {
    const log = path.join(await mkdtemp(path.join(tmpdir(), 'hangbench-skips-')), 'skips.log');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      HANGBENCH_SKIP_LOG: log,
    };
    if (ci !== undefined) env.CI = ci;
    const result = await execa(
      'npx',
      ['vitest', 'run', '--config', 'test/support/fixtures/skip-guard/vitest.config.ts', '--color=false'],
      { cwd: root, env, extendEnv: false, reject: false },
    );
    const logged = existsSync(log) ? (await readFile(log, 'utf8')).trim().split('\n') : [];
    return { ...result, logged };
  }
  const file = 'test/support/fixtures/skip-guard/skips.fixture.ts';

  it('in CI (CI=yes) fails the run on each skip not listed for this user with this reason, and names them', async () => {
    const run = await runFixture('yes');
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const block = run.stderr.slice(run.stderr.indexOf('CI=yes: '));
    expect(block).toContain(`CI=yes: 3 skip(s) not in test/support/expected-skips.ts for ${currentUser()}`);
    expect(block).toContain(`${file} > is listed for the other user only: host shape: the listed reason`);
    expect(block).toContain(`${file} > is listed with another reason: needs a capability the machine lost`);
    expect(block).toContain(`${file} > is not listed: host shape: a new skip`);
    expect(block).not.toContain('is listed for this user with this reason');
    // every skip is logged for .ci/run's count, the expected one too
    expect(run.logged).toHaveLength(4);
    expect(run.logged).toContain(`${file} > is listed for this user with this reason: host shape: the listed reason`);
  });

  it('outside CI (CI=false) lists the same skips with their reasons and passes', async () => {
    const run = await runFixture('false');
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('4 skipped, with the reason each gave:');
    expect(run.stdout).toContain(`  ${file} > is not listed: host shape: a new skip`);
    expect(run.stderr).not.toContain('expected-skips.ts');
    expect(run.logged).toHaveLength(4);
  });
});
