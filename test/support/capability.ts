import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it, type TestContext } from 'vitest';
import { inCi } from './ci.js';

/** What some tests need from the machine, each with how `.ci/run` provides it on the CI machine. */
export const CAPABILITIES = {
  bubblewrap: 'bubblewrap that runs (`apt-get install bubblewrap`; .ci/run refuses to go on if it cannot run)',
  'writable cgroup': 'a cgroup v2 the harness can write (root on the CI VM; a delegated subtree elsewhere)',
  'network namespace': '`unshare --net` and `ip` (util-linux, iproute2)',
  vim: 'vim (`apt-get install vim`)',
  'non-root user hbuser': 'the user `hbuser` (`useradd -m hbuser`, as .ci/run does)',
  'root with mount namespaces': 'root and `unshare -m` (util-linux), to force host shapes in a private mount namespace',
  'installed agent CLI':
    "the adapter's pinned package in the agent cache (`node scripts/install-agents.mjs`, as .ci/run does)",
} as const;

export type Capability = keyof typeof CAPABILITIES;

/**
 * Lets the test go on when `available`; otherwise skips it with the reason, or, in CI, fails it, since the CI
 * machine is meant to have every capability. Call it first in a test body (or in a beforeEach).
 */
export function requireCapability(
  ctx: Pick<TestContext, 'skip'>,
  name: Capability,
  available: boolean,
  detail = '',
): void {
  if (available) return;
  const why = `needs ${name}${detail ? ` (${detail})` : ''}: ${CAPABILITIES[name]}`;
  // Under CI (any CI but false or 0, test/support/ci.ts) a missing required capability is a failure: a missing
  // install step must not hide behind a skip.
  if (inCi()) throw new Error(`CI=${process.env.CI} and this machine lacks a capability CI is meant to have: ${why}`);
  ctx.skip(why);
}

/**
 * A writable cgroup is a CI capability for root only: a non-root user has none without a delegated subtree (systemd),
 * which the CI machine does not offer, so there its absence is a host shape, not a missing install step.
 */
export function requireCgroup(ctx: Pick<TestContext, 'skip'>, available: boolean, detail: string): void {
  if (process.getuid?.() === 0) requireCapability(ctx, 'writable cgroup', available, detail);
  else onlyOnHostShape(ctx, available, `${detail}, which a non-root user has only in a delegated cgroup subtree`);
}

/** A test that applies to one shape of host only: skips with the shape it needs; never a failure, the other branch runs. */
export function onlyOnHostShape(ctx: Pick<TestContext, 'skip'>, applies: boolean, shape: string): void {
  ctx.skip(!applies, `host shape: applies only where ${shape}; the test of this host's branch ran instead`);
}

function commandExists(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The vim the editor tests drive, if any (Debian's vim-tiny answers to vi). */
export const VIM = ['/usr/bin/vim', '/usr/bin/vi'].find((path) => existsSync(path));

export function userExists(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const IS_ROOT = process.getuid?.() === 0;
export const CAN_UNSHARE_MOUNT = IS_ROOT && commandExists('unshare');

const LINUX = process.platform === 'linux';

/**
 * `describe` for tests that need Linux (/proc, namespaces, signals as Linux delivers them). Elsewhere the block is one
 * skipped test that says so, so the skip reporter shows a reason instead of "no reason given", and none of the
 * block's hooks run where they cannot.
 */
export function describeOnLinux(name: string, body: () => void): void {
  if (LINUX) describe(name, body);
  else
    describe(name, () =>
      it('runs on Linux only', (ctx) =>
        onlyOnHostShape(ctx, false, `the host is Linux (this is ${process.platform}: no /proc, no namespaces)`)),
    );
}
