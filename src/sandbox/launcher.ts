import { ownLimits } from '../proc/index.js';
import { niceIncrement } from './harness-priority.js';
import { closeInheritedFds } from './host/inherited-fds.js';
import { SCRIPT_COMMAND } from './pty.js';
import { CPU_PRIORITIES, type CpuPriority, type ResourceLimits } from './types.js';
import { HangbenchError } from '../types/errors.js';
import type { Terminal } from '../types/terminal.js';

/**
 * The first program of every command. It closes the descriptors the harness inherited (closeInheritedFds), joins the
 * command's cgroups before it can fork (so no descendant is ever outside them), lowers its limits, brings up loopback
 * in a fresh network namespace, and then execs `nice … bash -c "$HANGBENCH_CMD"` in the same process, so the spawned
 * pid stays the root of the tree — or, for a pty, `nice … script …`, which runs the command on a pseudo-terminal (see
 * pty.ts).
 * $1 v2 cgroup.procs, $2 the v1 cgroup.procs files (pids, memory, cpu) joined by ':', $3 ulimit flags, $4 'lo' or ''
 * — each '' to skip; $5 'pipe', 'pty' or 'null' (a pipe command whose stdin is /dev/null);
 * the rest is the exec prefix. In a jail the cgroups are joined here, as root and before nsenter forks into the sandbox,
 * so the command and everything it forks are members from their first instruction.
 */
const LAUNCHER = [
  closeInheritedFds(),
  'cmd=$HANGBENCH_CMD; unset HANGBENCH_CMD',
  'set -f; IFS=:; shared=($2); unset IFS; set +f',
  'for procs in "$1" "${shared[@]}"; do',
  '  [ -z "$procs" ] || echo $$ > "$procs" || { echo "hangbench: cannot join cgroup $procs" >&2; exit 125; }',
  'done',
  '[ -z "$3" ] || ulimit $3 || { echo "hangbench: cannot set limits: $3" >&2; exit 125; }',
  '[ -z "$4" ] || ip link set lo up || { echo "hangbench: cannot bring up loopback" >&2; exit 125; }',
  'terminal=$5; shift 5',
  `[ "$terminal" != pty ] || HANGBENCH_CMD=$cmd exec "$@" script -qec '${SCRIPT_COMMAND}' /dev/null`,
  '[ "$terminal" != null ] || exec </dev/null',
  'exec "$@" bash --norc -c "$cmd"',
].join('\n');

/** Hard limits of the harness, by /proc/self/limits row; a launcher cannot raise them, only stay below. */
function hardLimits(): Map<string, number> {
  const limits = new Map<string, number>();
  // no /proc: let ulimit try and fail loudly if it must
  for (const line of (ownLimits() ?? '').split('\n').slice(1)) {
    const match = /^(Max [a-z ]+?)\s{2,}\S+\s+(\S+)/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined && match[2] !== 'unlimited')
      limits.set(match[1], Number(match[2]));
  }
  return limits;
}

/**
 * bash `ulimit` flags (-f 1 KiB blocks, -t s, -v KiB, -u count), skipping any the harness's hard limit already beats;
 * on Linux also `-e 0` (RLIMIT_NICE soft and hard 0): no program can lower its nice value below the launcher's, nor
 * leave SCHED_IDLE (sched(7): only CAP_SYS_NICE or RLIMIT_NICE allows either, and the sandbox has no capability).
 */
export function ulimitFlags(
  limits: ResourceLimits,
  options: { addressSpace: boolean; processes: boolean; niceLimit?: boolean },
): string {
  const hard = hardLimits();
  const wanted: [flag: string, row: string, bytesPerUnit: number, value: number][] = [
    ['-f', 'Max file size', 1024, limits.fileSizeBytes],
    ['-t', 'Max cpu time', 1, limits.cpuSeconds],
  ];
  // macOS bash refuses -v outright, which would stop every command from starting.
  if (options.addressSpace) wanted.push(['-v', 'Max address space', 1024, limits.addressSpaceBytes]);
  if (options.processes) wanted.push(['-u', 'Max processes', 1, limits.processes]);
  return [
    ...wanted
      .filter(([, row, , value]) => value <= (hard.get(row) ?? Infinity))
      .map(([flag, , unit, value]) => `${flag} ${Math.max(1, Math.floor(value / unit))}`),
    ...(options.niceLimit === true ? ['-e 0'] : []),
  ].join(' ');
}

export interface LaunchPlan {
  readonly v2Procs: string | null;
  /** cgroup.procs of the attempt's cgroup v1 groups (pids, memory, cpu). */
  readonly v1Procs: readonly string[];
  readonly ulimits: string;
  readonly isolateNetwork: boolean;
  readonly nice: number;
  /** 'batch' / 'idle': the command runs under `chrt --batch 0` / `chrt --idle 0`, inside the jail (the others: nice only). */
  readonly cpuPriority?: CpuPriority;
  readonly terminal: Terminal;
  /** a pipe command's stdin comes from /dev/null. */
  readonly stdinNull?: boolean;
  /** Jail.enterPrefix() when the command runs in a bubblewrap sandbox (which has its own loopback-only network). */
  readonly jail: readonly string[] | null;
}

/** argv for child_process.spawn; the command itself travels in HANGBENCH_CMD, never quoted into a script. */
export function launcherArgv(plan: LaunchPlan): [string, ...string[]] {
  const prefix = [...(plan.jail ?? []), ...schedPrefix(plan.cpuPriority), ...niceArgs(plan.nice)];
  // --norc: `bash -c` whose stdin is a socket (Node's pipes are socketpairs) takes itself for rshd's and runs ~/.bashrc,
  // and HOME is the sandbox's, which the agent writes: the launcher would run it on the host, as the harness's user.
  const launcher = ['bash', '--norc', '-c', LAUNCHER, 'hangbench-launcher'] as const;
  const ownNetns = plan.isolateNetwork && plan.jail === null;
  const args = [
    plan.v2Procs ?? '',
    plan.v1Procs.join(':'),
    plan.ulimits,
    ownNetns ? 'lo' : '',
    plan.terminal === 'pipe' && plan.stdinNull === true ? 'null' : plan.terminal,
    ...prefix,
  ];
  // unshare without --fork execs into the namespace: same pid, no PID namespace, nothing forked before the join.
  return ownNetns ? ['unshare', '--net', '--', ...launcher, ...args] : [...launcher, ...args];
}

/** `nice -n` to put the command at nice `target` from wherever the harness runs (see niceIncrement). */
function niceArgs(target: number): string[] {
  const increment = niceIncrement(target);
  return increment === 0 ? [] : ['nice', '-n', String(increment)];
}

/** util-linux chrt sets the policy and execs: the same process, so the spawned pid stays the root of the tree. */
function schedPrefix(priority: CpuPriority | undefined): string[] {
  if (priority === 'batch') return ['chrt', '--batch', '0'];
  if (priority === 'idle') return ['chrt', '--idle', '0'];
  return [];
}

/** HANGBENCH_CPU_PRIORITY=nice|batch|idle|group-low|group-idle, when set: the run's lever instead of the default. */
export function cpuPriorityOverride(env: NodeJS.ProcessEnv = process.env): { cpuPriority?: CpuPriority } {
  const value = env.HANGBENCH_CPU_PRIORITY;
  if (value === undefined || value === '') return {};
  if (!(CPU_PRIORITIES as readonly string[]).includes(value))
    throw new HangbenchError(
      'SANDBOX',
      `HANGBENCH_CPU_PRIORITY=${value}: not one of ${CPU_PRIORITIES.join(', ')}; unset it for the default`,
    );
  return { cpuPriority: value as CpuPriority };
}
