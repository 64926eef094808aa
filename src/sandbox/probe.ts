import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeCgroup } from './cgroup.js';
import type { HostCapabilities } from './types.js';

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
  const mount = readOr('/proc/self/mounts')
    .split('\n')
    .map((line) => line.split(' '))
    .find(([, , type, options]) =>
      controller === 'v2' ? type === 'cgroup2' : type === 'cgroup' && (options ?? '').split(',').includes(controller),
    );
  if (mount?.[1] === undefined) return null;
  const own = readOr('/proc/self/cgroup')
    .split('\n')
    .map((line) => line.split(':'))
    .find(([, controllers]) => (controller === 'v2' ? controllers === '' : (controllers ?? '').split(',').includes(controller)));
  return { mountPoint: mount[1], ownPath: own?.[2] ?? '/' };
}

/**
 * Returns `<cgroup>/hangbench` when a process can really be moved into a child of it, else null with the reason in notes.
 * Tries the harness's own cgroup first (what a delegated, rootless setup can write), then the mount root.
 */
async function usableCgroupRoot(mount: CgroupMount, requiredFile: string, notes: string[]): Promise<string | null> {
  const candidates = [...new Set([join(mount.mountPoint, mount.ownPath, 'hangbench'), join(mount.mountPoint, 'hangbench')])];
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
  const v2 = findMount('v2');
  const pids = findMount('pids');
  const cgroupRoot = v2 === null ? null : await usableCgroupRoot(v2, 'cgroup.kill', notes);
  const pidsCgroupRoot = pids === null ? null : await usableCgroupRoot(pids, 'pids.max', notes);
  const cpu = findMount('cpu');
  const memory = findMount('memory');
  const cpuCgroupRoot = cpu === null ? null : await usableCgroupRoot(cpu, 'cpu.shares', notes);
  const memoryCgroupRoot = memory === null ? null : await usableCgroupRoot(memory, 'memory.limit_in_bytes', notes);
  if (cgroupRoot === null) notes.push('no writable cgroup v2 with cgroup.kill: killing by process group + /proc scan for the attempt marker');
  // Not a PID namespace: the command would be its PID 1, which ignores default-action SIGINT/SIGTERM and changes fixtures.
  notes.push('PID namespace not used: the command would run as PID 1 there, which ignores SIGINT/SIGTERM without a handler');
  const isRoot = process.getuid?.() === 0;
  const processLimit = pidsCgroupRoot !== null ? 'pids-cgroup' : isRoot ? 'none' : 'rlimit';
  if (processLimit === 'pids-cgroup') notes.push('process limit by cgroup v1 pids.max (RLIMIT_NPROC does not bind root)');
  if (processLimit === 'none') notes.push('no pids cgroup and running as root, where RLIMIT_NPROC does not bind: no process limit');
  if (processLimit === 'rlimit') notes.push('process limit by RLIMIT_NPROC: counts every process of this user, not only the attempt');
  // lo starts down in a new network namespace; fixtures may still talk to servers they start on loopback.
  const netns = await works('unshare', ['--net', '--', 'ip', 'link', 'set', 'lo', 'up']);
  notes.push(netns ? 'fixtures get a network namespace with loopback only' : 'no network namespace (unshare --net + ip link): fixtures have the host network');
  notes.push(cpuCgroupRoot === null ? 'no cpu cgroup: nice 10 weighs per process, so a fork bomb can crowd out the harness' : 'one cgroup v1 cpu group per attempt: it weighs as one process against the harness, however many it forks');
  notes.push(memoryCgroupRoot === null ? 'no memory cgroup: memory is bounded per process (address space) only' : 'memory bounded per attempt by cgroup v1 memory.limit_in_bytes');
  notes.push('address space, file size and CPU time limited by bash ulimit in the launcher');
  const pty = await works('script', ['-qec', 'exit 0', '/dev/null']);
  notes.push(pty ? 'terminal: pty by script(1) from util-linux' : 'no script(1) from util-linux: cases with terminal: pty cannot run');
  return {
    platform: process.platform,
    proc: true,
    mechanism: cgroupRoot === null ? 'process-group+scan' : 'cgroup-v2',
    cgroupRoot,
    pidsCgroupRoot,
    cpuCgroupRoot,
    memoryCgroupRoot,
    netns,
    processLimit,
    pty,
    notes,
  };
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
    notes: [
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
  cached ??= process.platform === 'linux' && existsSync('/proc/self/stat') ? probeLinux() : Promise.resolve(probeElsewhere());
  return cached;
}
