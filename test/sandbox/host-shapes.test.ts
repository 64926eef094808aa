import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { release, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { HostCapabilities } from '../../src/sandbox/index.js';
import { CAN_UNSHARE_MOUNT, requireCapability, userExists } from '../support/capability.js';

/**
 * The probe (src/sandbox/host/probe.ts), run by the built harness in a child process under host shapes forced for real:
 * cgroup hierarchies made read-only or unmounted in a private mount namespace, a non-root user, a PATH without
 * bubblewrap. What each shape must give is worked out here from /proc/self/mounts, independently of the probe.
 */
const PRINT_PROBE = path.resolve(import.meta.dirname, '../fixtures/host-shapes/print-probe.mjs');
const run = promisify(execFile);
/** The kill mechanism without a writable cgroup: a jail's per-command user namespaces, else the group + marker scan. */
const noCgroupMechanism = (caps: HostCapabilities): string =>
  caps.isolation === 'bubblewrap' ? 'pid-namespace' : 'process-group+scan';

const MOUNTS = readFileSync('/proc/self/mounts', 'utf8')
  .split('\n')
  .map((line) => line.split(' '))
  .filter((fields) => fields.length > 3);
const V2_MOUNT = MOUNTS.find(([, , type]) => type === 'cgroup2')?.[1] ?? null;
const hasV1 = (controller: string): boolean =>
  MOUNTS.some(([, , type, options]) => type === 'cgroup' && (options ?? '').split(',').includes(controller));
/** Controllers the cgroup2 root offers: none that a v1 hierarchy holds (a hybrid host), all of them on a pure v2 host. */
const V2_CONTROLLERS =
  V2_MOUNT === null ? [] : readFileSync(path.join(V2_MOUNT, 'cgroup.controllers'), 'utf8').trim().split(/\s+/);
/** cgroup.kill came in Linux 5.14 (a root cgroup has none of its own to look for). */
const [major = 0, minor = 0] = release().split('.').map(Number);
const V2_KILL = V2_MOUNT !== null && (major > 5 || (major === 5 && minor >= 14));

/** Shell that makes the shape in a private mount namespace before the probe runs (as root). */
const CGROUP_MOUNTS = `awk '$3 == "cgroup" || $3 == "cgroup2" {print $2}' /proc/self/mounts`;
const SHAPES = {
  'read-only cgroupfs': `for m in $(${CGROUP_MOUNTS}) /sys/fs/cgroup; do mount -o remount,bind,ro "$m"; done; ! grep -qE ' cgroup2? rw,' /proc/self/mounts`,
  'v1 only': `for m in $(awk '$3 == "cgroup2" {print $2}' /proc/self/mounts); do umount "$m"; done`,
  'v2 only': `for m in $(awk '$3 == "cgroup" {print $2}' /proc/self/mounts); do umount "$m"; done`,
  'no cgroup at all': `for m in $(${CGROUP_MOUNTS}); do umount "$m"; done`,
} as const;

async function probeIn(shape: keyof typeof SHAPES): Promise<HostCapabilities> {
  const script = `set -e; ${SHAPES[shape]}; exec node "$1"`;
  const { stdout } = await run('unshare', [
    '-m',
    '--propagation',
    'private',
    'bash',
    '-c',
    script,
    'shape',
    PRINT_PROBE,
  ]);
  return JSON.parse(stdout) as HostCapabilities;
}

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('the probe under forced host shapes (private mount namespaces, as root)', () => {
  it("read-only cgroupfs (a container): no cgroup, kills by the jail's per-command namespaces, and no process limit for root", async (ctx) => {
    requireCapability(ctx, 'root with mount namespaces', CAN_UNSHARE_MOUNT);
    const caps = await probeIn('read-only cgroupfs');
    expect(caps.isolation).toBe('bubblewrap');
    expect(caps).toMatchObject({
      mechanism: 'pid-namespace',
      cgroupRoot: null,
      pidsCgroupRoot: null,
      cpuCgroupRoot: null,
      memoryCgroupRoot: null,
    });
    expect(caps.cgroupLimits).toEqual({ pids: null, memory: null, cpu: null });
    expect(caps.processLimit).toBe('none');
    const notes = caps.notes.join('\n');
    expect(notes).toMatch(/not usable: E(ROFS|NOENT)/);
    expect(notes).toMatch(/no pids cgroup and running as root, where RLIMIT_NPROC does not bind: no process limit/);
  });

  it('cgroup v1 only: every v1 controller bounds its limit; no cgroup.kill, so kills by namespace (or group + scan)', async (ctx) => {
    requireCapability(ctx, 'root with mount namespaces', CAN_UNSHARE_MOUNT);
    const caps = await probeIn('v1 only');
    const v1 = (controller: string): 'v1' | null => (hasV1(controller) ? 'v1' : null);
    expect(caps.cgroupLimits).toEqual({ pids: v1('pids'), memory: v1('memory'), cpu: v1('cpu') });
    expect(caps).toMatchObject({
      mechanism: noCgroupMechanism(caps),
      cgroupRoot: null,
      processLimit: hasV1('pids') ? 'pids-cgroup' : 'none',
    });
  });

  it('cgroup v2 only: kills by cgroup.kill; a limit is v2 where the v2 root offers its controller, else none', async (ctx) => {
    requireCapability(ctx, 'root with mount namespaces', CAN_UNSHARE_MOUNT);
    requireCapability(ctx, 'writable cgroup', V2_KILL, 'a cgroup2 mount with cgroup.kill (kernel 5.14+)');
    const caps = await probeIn('v2 only');
    const v2 = (controller: string): 'v2' | null => (V2_CONTROLLERS.includes(controller) ? 'v2' : null);
    expect(caps.cgroupLimits).toEqual({ pids: v2('pids'), memory: v2('memory'), cpu: v2('cpu') });
    expect(caps).toMatchObject({
      mechanism: 'cgroup-v2',
      pidsCgroupRoot: null,
      cpuCgroupRoot: null,
      memoryCgroupRoot: null,
    });
    expect(caps.cgroupRoot).toMatch(/\/hangbench$/);
    expect(caps.processLimit).toBe(V2_CONTROLLERS.includes('pids') ? 'pids-cgroup' : 'none');
    console.info(
      `v2 only: the v2 root offers [${V2_CONTROLLERS.join(' ')}]; limits ${JSON.stringify(caps.cgroupLimits)}`,
    );
  });

  it('no cgroup mounted at all: no limits by cgroup, kills by namespace (or group + scan)', async (ctx) => {
    requireCapability(ctx, 'root with mount namespaces', CAN_UNSHARE_MOUNT);
    const caps = await probeIn('no cgroup at all');
    expect(caps).toMatchObject({ mechanism: noCgroupMechanism(caps), cgroupRoot: null, processLimit: 'none' });
    expect(caps.cgroupLimits).toEqual({ pids: null, memory: null, cpu: null });
    expect(caps.notes.join('\n')).toMatch(/no writable cgroup v2 with cgroup\.kill/);
  });
});

describe('the probe as another user or without bubblewrap', () => {
  it.for([
    ['nobody (uid 65534)', ['--reuid=65534', '--regid=65534', '--clear-groups']],
    ['hbuser', ['--reuid=hbuser', '--regid=hbuser', '--init-groups']],
  ] as const)(
    'as the non-root user %s of root-owned cgroups: process limit by RLIMIT_NPROC, no cgroup',
    async ([user, credentials], ctx) => {
      requireCapability(
        ctx,
        'root with mount namespaces',
        CAN_UNSHARE_MOUNT,
        'root, to become another user with setpriv',
      );
      if (user === 'hbuser') requireCapability(ctx, 'non-root user hbuser', userExists('hbuser'));
      const home = await mkdtemp(path.join(tmpdir(), 'hangbench-shape-'));
      scratch.push(home);
      await chmod(home, 0o777);
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: home };
      const { stdout } = await run('setpriv', [...credentials, 'node', PRINT_PROBE], { env });
      const caps = JSON.parse(stdout) as HostCapabilities;
      // The premise: no other user can write this host's cgroups (root-owned, not world-writable).
      for (const [, mountPoint, type] of MOUNTS)
        if (type === 'cgroup' || type === 'cgroup2') expect(statSync(mountPoint!).mode & 0o002).toBe(0);
      expect(caps).toMatchObject({ mechanism: noCgroupMechanism(caps), cgroupRoot: null, processLimit: 'rlimit' });
      expect(caps.cgroupLimits).toEqual({ pids: null, memory: null, cpu: null });
      expect(caps.notes.join('\n')).toMatch(/not usable: EACCES/);
    },
  );

  it('without bwrap on PATH: host-user isolation, and the notes name the package', async () => {
    // Every tool of PATH but bwrap, linked into one directory.
    const bin = await mkdtemp(path.join(tmpdir(), 'hangbench-nobwrap-'));
    scratch.push(bin);
    for (const dir of (process.env.PATH ?? '')
      .split(':')
      .filter((dir) => existsSync(dir))
      .reverse()) {
      for (const name of await readdir(dir)) {
        if (name === 'bwrap') continue;
        await rm(path.join(bin, name), { force: true });
        await symlink(path.join(dir, name), path.join(bin, name));
      }
    }
    const { stdout } = await run('node', [PRINT_PROBE], { env: { ...process.env, PATH: bin } });
    const caps = JSON.parse(stdout) as HostCapabilities;
    expect(caps.isolation).toBe('host-user');
    expect(caps.notes.join('\n')).toMatch(
      /isolation host-user: no bwrap on PATH\. Fix: install bubblewrap \(`apt-get install bubblewrap`/,
    );
  });
});
