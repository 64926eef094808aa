import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diagnose, preflight } from '../../src/sandbox/host/diagnose.js';
import { onlyOnHostShape, requireCapability } from '../support/capability.js';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const root = process.getuid?.() === 0;

function bwrapRuns(args: string[]): Promise<boolean> {
  return new Promise((resolve) => execFile('bwrap', [...args, 'true'], (error) => resolve(error === null)));
}

describe('why the jail cannot start, and the fix, in one line', () => {
  it.each([
    [
      'bwrap: setting up uid map: Permission denied',
      /AppArmor or a seccomp profile/,
      /apparmor_restrict_unprivileged_userns=0/,
    ],
    ['bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted', /AppArmor/, /profile bwrap \/usr\/bin\/bwrap/],
    [
      "bwrap: Can't mount proc on /newroot/proc: Operation not permitted",
      /container whose \/proc is masked/,
      /procMount: Unmasked/,
    ],
    [
      'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces',
      /may not create namespaces/,
      /unprivileged_userns_clone=1/,
    ],
  ])('reads %j', (message, cause, fix) => {
    const diagnosis = diagnose(
      `could not start the bubblewrap sandbox (pid 1): bwrap exited with 1: ${message}`,
      false,
    );
    expect(diagnosis.cause).toMatch(cause);
    expect(diagnosis.fix).toMatch(fix);
    expect(`${diagnosis.cause}. Fix: ${diagnosis.fix}`).not.toContain('\n');
  });

  it('names a setuid bwrap before trying it', async (context) => {
    onlyOnHostShape(context, root, 'the harness is root: making a setuid copy of bwrap needs root');
    const dir = await mkdtemp(join(tmpdir(), 'hangbench-suid-'));
    const path = process.env.PATH;
    try {
      await copyFile('/usr/bin/bwrap', join(dir, 'bwrap'));
      await chmod(join(dir, 'bwrap'), 0o4755);
      process.env.PATH = `${dir}:${path}`;
      expect(preflight(false)).toMatchObject({
        cause: expect.stringContaining('is setuid root'),
        fix: expect.stringContaining('chmod u-s'),
      });
      expect(preflight(true)).toBeNull();
    } finally {
      process.env.PATH = path;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a missing bwrap', () => {
    const path = process.env.PATH;
    try {
      process.env.PATH = '/nonexistent';
      expect(preflight(root)).toMatchObject({
        cause: 'no bwrap on PATH',
        fix: expect.stringContaining('apt-get install bubblewrap'),
      });
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('hangbench inside a container-like outer sandbox (its /proc masked, as Docker and Kubernetes do)', () => {
  /** An unprivileged outer bwrap: a user and PID namespace, the host's files, and /proc/timer_list masked like a container's. */
  const OUTER = [
    '--unshare-user',
    '--unshare-pid',
    '--dev-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--ro-bind',
    '/dev/null',
    '/proc/timer_list',
  ];

  function hangbenchInside(args: string[]): Promise<{ code: number; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        'bwrap',
        [...OUTER, '--', 'node', `${PROJECT}/bin/hangbench.js`, ...args],
        { env: { ...process.env, HANGBENCH_ISOLATION: '' } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }),
      );
    });
  }

  it('--isolation strict refuses with one line: the cause and the pod settings that fix it', async (context) => {
    requireCapability(
      context,
      'bubblewrap',
      await bwrapRuns(OUTER),
      'an unprivileged bwrap to build the outer sandbox',
    );
    const out = join(tmpdir(), `hangbench-never-${process.pid}`);
    const result = await hangbenchInside([
      'eval',
      `${PROJECT}/cases/py-pipe-deadlock.yaml`,
      '--agent',
      'nop',
      '--isolation',
      'strict',
      '--out',
      out,
    ]);
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/--isolation strict: .*container whose \/proc is masked.*Fix: .*procMount: Unmasked/);
  });
});
