import type { ProcessSample, TreeSnapshot } from '../types/process.js';
import { readDetails, type ProcDetails } from './proc-details.js';
import { pageSizeKb, readProcFile, readProcLink } from './proc-files.js';
import { ProcHandles } from './proc-handles.js';
import { parseStat, parseUptime, type StatFields } from './proc-parse.js';
import { findTerminalWaits, PTY_SLAVE, type TerminalWait } from './terminal-waits.js';

/** Clock ticks per second; `getconf CLK_TCK` is 100 on every Linux we run on, and USER_HZ is fixed ABI. */
const CLOCK_TICKS = 100;

/** A snapshot plus what the next sample needs to compute CPU % over the interval. */
export interface TreeSample {
  readonly snapshot: TreeSnapshot;
  /** performance.now() when the sample was taken. */
  readonly takenAt: number;
  readonly cpu: ReadonlyMap<number, { readonly ticks: number; readonly startTicks: number }>;
  /**
   * Where the agent's input arrives, kept so a root that exits still counts: fd 0 of the tree root (`socket:[…]` for
   * Node's stdin pipe), or in pty mode the terminal's slave (`/dev/pts/N`), once script(1) has started the command.
   */
  readonly stdinTarget: string | null;
  /** pty mode: processes waiting for a key at the terminal (see terminal-waits.ts). */
  readonly terminalWaits: ReadonlyMap<number, TerminalWait>;
  /** the tree's /proc descriptors, kept open for the next sample; `releaseSample` closes them. */
  readonly handles: ProcHandles;
  /** per pid: its details and the ns it had run (schedstat) when they were read, for reuse while it has not run since. */
  readonly details: ReadonlyMap<number, { readonly ranNs: string; readonly state: string; readonly details: ProcDetails }>;
}

/** Closes the descriptors a sample kept open; call it when the command's last sample has been taken. */
export function releaseSample(sample: TreeSample | null | undefined): void {
  sample?.handles.close();
}

/**
 * Samples every pid from /proc. The first pid is the tree root: on the first sample its fd 0
 * target is taken as the harness's stdin (pty mode: the slave that fd 0 of the root's child is). Pids that vanish
 * mid-sample are skipped.
 */
export function sampleTree(pids: readonly number[], previous?: TreeSample | null, terminal: 'pipe' | 'pty' = 'pipe'): TreeSample {
  const takenAt = performance.now();
  const uptime = parseUptime(readProcFile('/proc/uptime') ?? '0');
  const stdinTarget = previous?.stdinTarget ?? (previous && terminal === 'pipe' ? null : agentInput(pids, terminal));
  const handles = previous?.handles ?? new ProcHandles();
  const cpu = new Map<number, { ticks: number; startTicks: number }>();
  const details = new Map<number, { ranNs: string; state: string; details: ProcDetails }>();
  const samples: ProcessSample[] = [];
  const wanted = new Set(pids);
  for (const pid of wanted) {
    // A kept descriptor of a process that is gone answers null once and is dropped; the second read opens the pid anew.
    const statText = handles.read(pid, 'stat') ?? handles.read(pid, 'stat');
    const stat = statText === null ? null : parseStat(statText);
    if (!stat) continue;
    cpu.set(pid, { ticks: stat.cpuTicks, startTicks: stat.startTicks });
    const before = previous?.cpu.get(pid);
    // A pid first seen now (or reused) gets its lifetime average, which is exact for one born this interval.
    const cpuPercent =
      previous && before && before.startTicks === stat.startTicks
        ? percent(stat.cpuTicks - before.ticks, (takenAt - previous.takenAt) / 1000)
        : percent(stat.cpuTicks, uptime - stat.startTicks / CLOCK_TICKS);
    const ranNs = stat.threads === 1 ? (handles.read(pid, 'schedstat')?.split(' ')[0] ?? '') : '';
    const kept = before && before.startTicks === stat.startTicks ? previous?.details.get(pid) : undefined;
    const current = unchanged(kept, ranNs, stat) ? kept.details : readDetails(pid, stat, pids.length, handles);
    details.set(pid, { ranNs, state: stat.state, details: current });
    const { stdinLink, ...shown } = current;
    samples.push({
      pid,
      ppid: stat.ppid,
      pgid: stat.pgid,
      sid: stat.sid,
      command: stat.command,
      state: stat.state,
      threads: stat.threads,
      cpuPercent,
      rssKb: stat.rssPages * pageSizeKb(),
      ...shown,
      stdinIsHarnessPipe: stdinTarget !== null && stdinLink === stdinTarget,
      children: [],
    });
  }
  handles.retain(wanted);
  const terminalWaits = terminal === 'pty' && stdinTarget !== null ? findTerminalWaits(samples, stdinTarget) : new Map<number, TerminalWait>();
  return { snapshot: { source: 'proc', processes: linkChildren(samples) }, takenAt, cpu, stdinTarget, terminalWaits, handles, details };
}

/**
 * A single-threaded process that has not run a nanosecond since its details were read cannot have changed them: its
 * wait channel, syscall, fds, I/O counters and command line are its own doing. Its stat line (parent, state, RSS) is
 * read every time, since those change from outside (re-parenting, a stop, reclaim).
 */
type Kept = { ranNs: string; state: string; details: ProcDetails };

function unchanged(kept: Kept | undefined, ranNs: string, stat: StatFields): kept is Kept {
  return kept !== undefined && ranNs !== '' && kept.ranNs === ranNs && kept.state === stat.state;
}

/**
 * Only a pipe, socket or terminal can be "the harness's stdin"; /dev/null is shared by everything. In pty mode the
 * root is script(1), which relays our pipe; the command's input is the slave it gave its child as fd 0.
 */
function agentInput(pids: readonly number[], terminal: 'pipe' | 'pty'): string | null {
  const [rootPid, ...rest] = pids;
  if (rootPid === undefined) return null;
  if (terminal === 'pty') {
    for (const pid of rest) {
      const target = readProcLink(`/proc/${pid}/fd/0`);
      const stat = readProcFile(`/proc/${pid}/stat`);
      if (target && PTY_SLAVE.test(target) && stat !== null && parseStat(stat)?.ppid === rootPid) return target;
    }
    return null;
  }
  const target = readProcLink(`/proc/${rootPid}/fd/0`);
  return target && /^(pipe:|socket:|\/dev\/pts\/)/.test(target) ? target : null;
}

function percent(ticks: number, wallSeconds: number): number {
  if (!(wallSeconds > 0) || !(ticks > 0)) return 0;
  return Math.round((ticks / CLOCK_TICKS / wallSeconds) * 1000) / 10;
}

/** Children from the ppid links inside the sample, ordered as sampled. */
function linkChildren(samples: ProcessSample[]): ProcessSample[] {
  const children = new Map<number, number[]>();
  for (const sample of samples) {
    const siblings = children.get(sample.ppid) ?? [];
    siblings.push(sample.pid);
    children.set(sample.ppid, siblings);
  }
  return samples.map((sample) => ({ ...sample, children: children.get(sample.pid) ?? [] }));
}
