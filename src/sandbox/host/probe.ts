import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ownCgroups, ownMounts, procAvailable } from '../../proc/index.js';
import { makeCgroup } from '../cgroup/cgroup.js';
import { needsCommandUserns } from '../jail/attempt-jail.js';
import { probeIsolation } from './isolation.js';
import type { CgroupLimits, HostCapabilities } from '../types.js';

const run = promisify(execFile);

interface CgroupMount {
  readonly mountPoint: string;
  /** this process's cgroup under the mount, from /proc/self/cgroup. */
  readonly ownPath: string;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Finds the cgroup2 mount (hierarchy 0) or the v1 hierarchy carrying `controller`. */
function findMount(controller: 'v2' | 'pids' | 'cpu' | 'memory'): CgroupMount | null {
  const mount = (ownMounts() ?? '')
    .split('\n')
    .map((line) => line.split(' '))
    .find(([, , type, options]) =>
      controller === 'v2' ? type === 'cgroup2' : type === 'cgroup' && (options ?? '').split(',').includes(controller),
    );
  if (mount?.[1] === undefined) return null;
  const own = (ownCgroups() ?? '')
    .split('\n')
    .map((line) => line.split(':'))
    .find(([, controllers]) =>
      controller === 'v2' ? controllers === '' : (controllers ?? '').split(',').includes(controller),
    );
  return { mountPoint: mount[1], ownPath: own?.[2] ?? '/' };
}

/**
 * Returns `<cgroup>/hangbench` when a process can really be moved into a child of it, else null with the reason in notes.
 * Tries the harness's own cgroup first (what a delegated, rootless setup can write), then the mount root — first when
 * `controllers` are wanted and only the mount root offers them (a cgroup with processes cannot delegate v2 controllers).
 */
async function usableCgroupRoot(
  mount: CgroupMount,
  requiredFile: string,
  notes: string[],
  controllers: readonly string[] = [],
): Promise<string | null> {
  const own = join(mount.mountPoint, mount.ownPath);
  const offers = (dir: string): boolean =>
    controllers.every((name) => readOr(join(dir, 'cgroup.subtree_control')).split(/\s+/).includes(name));
  const preferRoot = controllers.length > 0 && !offers(own) && offers(mount.mountPoint);
  const ordered = preferRoot ? [mount.mountPoint, own] : [own, mount.mountPoint];
  const candidates = [...new Set(ordered.map((dir) => join(dir, 'hangbench')))];
  for (const root of candidates) {
    const probe = join(root, `probe-${process.pid}`);
    try {
      makeCgroup(probe);
      if (!existsSync(join(probe, requiredFile))) throw new Error(`${requiredFile} missing`);
      await run('bash', ['-c', 'echo $$ > "$1/cgroup.procs"', 'probe', probe]);
      return root;
    } catch (error) {
      notes.push(`cgroup ${root} not usable: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      try {
        rmdirSync(probe);
      } catch {
        // the probe dir was never created, or is already gone
      }
    }
  }
  return null;
}

type Controller = 'pids' | 'memory' | 'cpu';

/**
 * Turns on, for the attempts under `root`, the v2 controllers that no v1 hierarchy holds (on a pure v2 host: all
 * three). The parent must already delegate them (cgroup.controllers lists them); `root` itself holds no process.
 */
function enableV2Controllers(root: string, wanted: readonly Controller[], notes: string[]): Set<Controller> {
  const available = new Set(readOr(join(root, 'cgroup.controllers')).trim().split(/\s+/));
  const enabled = new Set<Controller>();
  for (const controller of wanted) {
    if (!available.has(controller)) continue;
    try {
      writeFileSync(join(root, 'cgroup.subtree_control'), `+${controller}`);
      enabled.add(controller);
    } catch (error) {
      notes.push(
        `cgroup v2 ${controller} controller not enabled under ${root}: ${(error as Error).message.split('\n')[0]}`,
      );
    }
  }
  return enabled;
}

async function works(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args);
    return true;
  } catch {
    return false;
  }
}

async function probeLinux(): Promise<HostCapabilities> {
  const notes: string[] = [];
  const { cgroupRoot, pidsCgroupRoot, cpuCgroupRoot, memoryCgroupRoot, cgroupLimits } = await probeCgroups(notes);
  const processLimit = processLimitOf(cgroupLimits, notes);
  // lo starts down in a new network namespace; fixtures may still talk to servers they start on loopback.
  const netns = await works('unshare', ['--net', '--', 'ip', 'link', 'set', 'lo', 'up']);
  noteResourceBounds(cgroupLimits, notes);
  const pty = await works('script', ['-qec', 'exit 0', '/dev/null']);
  notes.push(
    pty
      ? 'terminal: pty by script(1) from util-linux'
      : 'no script(1) from util-linux: cases with terminal: pty cannot run',
  );
  const { isolation, mechanism } = await probeJail(cgroupRoot, netns, notes);
  return {
    platform: process.platform,
    proc: true,
    mechanism,
    cgroupRoot,
    pidsCgroupRoot,
    cpuCgroupRoot,
    memoryCgroupRoot,
    netns,
    processLimit,
    pty,
    isolation,
    cgroupLimits,
    notes,
  };
}

/**
 * The usable cgroup roots (v2, and each v1 hierarchy) and, per limit, which version enforces it: a v1 hierarchy where
 * one holds the controller, else v2 when it could be enabled there.
 */
async function probeCgroups(notes: string[]) {
  const v2 = findMount('v2');
  const pids = findMount('pids');
  const cpu = findMount('cpu');
  const memory = findMount('memory');
  const v2Wanted = (['pids', 'memory', 'cpu'] as const).filter(
    (controller) => ({ pids, memory, cpu })[controller] === null,
  );
  const cgroupRoot = v2 === null ? null : await usableCgroupRoot(v2, 'cgroup.kill', notes, v2Wanted);
  const pidsCgroupRoot = pids === null ? null : await usableCgroupRoot(pids, 'pids.max', notes);
  const cpuCgroupRoot = cpu === null ? null : await usableCgroupRoot(cpu, 'cpu.shares', notes);
  const memoryCgroupRoot = memory === null ? null : await usableCgroupRoot(memory, 'memory.limit_in_bytes', notes);
  const v1 = { pids: pidsCgroupRoot, memory: memoryCgroupRoot, cpu: cpuCgroupRoot };
  const v2Enabled =
    cgroupRoot === null
      ? new Set<Controller>()
      : enableV2Controllers(
          cgroupRoot,
          v2Wanted.filter((c) => v1[c] === null),
          notes,
        );
  const version = (controller: Controller): 'v1' | 'v2' | null =>
    v1[controller] !== null ? 'v1' : v2Enabled.has(controller) ? 'v2' : null;
  const cgroupLimits: CgroupLimits = { pids: version('pids'), memory: version('memory'), cpu: version('cpu') };
  notes.push(
    `cgroup limits: pids ${cgroupLimits.pids ?? 'none'}, memory ${cgroupLimits.memory ?? 'none'}, cpu ${cgroupLimits.cpu ?? 'none'}`,
  );
  return { cgroupRoot, pidsCgroupRoot, cpuCgroupRoot, memoryCgroupRoot, cgroupLimits };
}

/** What bounds the number of processes: the pids cgroup, else RLIMIT_NPROC, which does not bind root (then nothing). */
function processLimitOf(cgroupLimits: CgroupLimits, notes: string[]): HostCapabilities['processLimit'] {
  const isRoot = process.getuid?.() === 0;
  const processLimit = cgroupLimits.pids !== null ? 'pids-cgroup' : isRoot ? 'none' : 'rlimit';
  if (processLimit === 'pids-cgroup')
    notes.push(`process limit by cgroup ${cgroupLimits.pids} pids.max (RLIMIT_NPROC does not bind root)`);
  if (processLimit === 'none')
    notes.push('no pids cgroup and running as root, where RLIMIT_NPROC does not bind: no process limit');
  if (processLimit === 'rlimit')
    notes.push('process limit by RLIMIT_NPROC: counts every process of this user, not only the attempt');
  return processLimit;
}

function noteResourceBounds(cgroupLimits: CgroupLimits, notes: string[]): void {
  notes.push(
    cgroupLimits.cpu === null
      ? 'no cpu cgroup: nice 10 weighs per process, so a fork bomb can crowd out the harness'
      : `one cgroup ${cgroupLimits.cpu} cpu group per attempt: it weighs as one process against the harness, however many it forks`,
  );
  notes.push(
    cgroupLimits.memory === null
      ? 'no memory cgroup: memory is bounded per process (address space) only'
      : `memory bounded per attempt by cgroup ${cgroupLimits.memory === 'v1' ? 'v1 memory.limit_in_bytes' : 'v2 memory.max and memory.swap.max'}`,
  );
  notes.push('address space, file size and CPU time limited by bash ulimit in the launcher');
}

/** How commands are jailed (bubblewrap or the host user) and, from that and the v2 cgroup, how their trees are killed. */
async function probeJail(
  cgroupRoot: string | null,
  netns: boolean,
  notes: string[],
): Promise<Pick<HostCapabilities, 'isolation' | 'mechanism'>> {
  // bwrap makes the network namespace itself, in a user namespace where unshare(1) as non-root cannot.
  // Without cgroup.kill, a jail's commands get user namespaces of their own, which name their processes exactly: the
  // probe's jail enters the way the attempts' will.
  const isolation = await probeIsolation(true, notes, needsCommandUserns(cgroupRoot));
  const mechanism =
    cgroupRoot !== null ? 'cgroup-v2' : isolation === 'bubblewrap' ? 'pid-namespace' : 'process-group+scan';
  if (mechanism === 'pid-namespace')
    notes.push(
      "no writable cgroup v2 with cgroup.kill: each command in a user namespace of its own inside the attempt's PID namespace, killed by namespace membership (setsid, env -i, double forks included)",
    );
  if (mechanism === 'process-group+scan')
    notes.push('no writable cgroup v2 with cgroup.kill: killing by process group + /proc scan for the attempt marker');
  if (isolation === 'bubblewrap')
    notes.push(
      `fixtures get a network namespace with loopback only, made by bubblewrap${netns ? '' : ' (unshare --net alone is refused to this user)'}`,
    );
  else
    notes.push(
      netns
        ? 'fixtures get a network namespace with loopback only'
        : 'no network namespace (unshare --net + ip link): fixtures have the host network',
    );
  if (isolation === 'host-user')
    notes.push(
      'PID namespace not used without bubblewrap: the command would run as PID 1 there, which ignores SIGINT/SIGTERM without a handler',
    );
  return { isolation, mechanism };
}

function probeElsewhere(): HostCapabilities {
  return {
    platform: process.platform,
    proc: false,
    mechanism: 'process-group+scan',
    cgroupRoot: null,
    pidsCgroupRoot: null,
    cpuCgroupRoot: null,
    memoryCgroupRoot: null,
    netns: false,
    processLimit: process.getuid?.() === 0 ? 'none' : 'rlimit',
    pty: false,
    isolation: 'host-user',
    cgroupLimits: { pids: null, memory: null, cpu: null },
    notes: [
      `isolation host-user: bubblewrap is Linux only; commands run as the harness user on the host filesystem`,
      `no /proc on ${process.platform}: kills reach the process group only (a setsid() grandchild survives), no leak scan, no process listing`,
      'no cgroups, no network namespace: fixtures have the host network',
      'file size and CPU time limited by bash ulimit; no address-space limit',
      'terminal: pty needs script(1) from util-linux and /proc: not available here',
    ],
  };
}

let cached: Promise<HostCapabilities> | null = null;

/** What isolation this host offers; probed once per process (it spawns a few short commands). */
export function probeHost(): Promise<HostCapabilities> {
  cached ??= procAvailable() ? probeLinux() : Promise.resolve(probeElsewhere());
  return cached;
}
