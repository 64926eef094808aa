import type { ProcessSample, ProgressDelta, TreeSnapshot } from '../../types/process.js';
import { readDetails, type ProcDetails } from './proc-details.js';
import { fdTarget, isLive, pageSizeKb, readPidFile, uptimeText } from '../../proc/index.js';
import { ProcHandles } from './proc-handles.js';
import { parseStat, parseUptime, type StatFields } from '../../proc/index.js';
import { findTerminalWaits, PTY_SLAVE, type TerminalWait } from './terminal-waits.js';
import { fileSizes, namespaceDataSegments, progressDelta, type ProgressCounters } from '../waits/progress.js';
import { findRelations } from '../waits/relations.js';
import type { Terminal } from '../../types/terminal.js';

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
  readonly details: ReadonlyMap<
    number,
    { readonly ranNs: string; readonly state: string; readonly details: ProcDetails }
  >;
  /** per pid: the counters the next sample's progress deltas start from. */
  readonly counters: ReadonlyMap<number, ProgressCounters>;
  /** TCP data segments sent in the command's own network namespace so far (null without one). */
  readonly netSegments: number | null;
}

/** Closes the descriptors a sample kept open; call it when the command's last sample has been taken. */
export function releaseSample(sample: TreeSample | null | undefined): void {
  sample?.handles.close();
}

/**
 * Samples every pid from /proc. The first pid is the tree root: on the first sample its fd 0
 * target is taken as the harness's stdin (pty mode: the slave that fd 0 of the root's child is). Pids that vanish
 * or end mid-sample are skipped.
 */
export function sampleTree(
  pids: readonly number[],
  previous?: TreeSample | null,
  terminal: Terminal = 'pipe',
  /** relations: false skips the wait-for relations (the bench's side-by-side figure); progress deltas stay. */
  options: { readonly relations?: boolean } = {},
): TreeSample {
  const takenAt = performance.now();
  const uptime = parseUptime(uptimeText() ?? '0');
  const stdinTarget = previous?.stdinTarget ?? (previous && terminal === 'pipe' ? null : agentInput(pids, terminal));
  const handles = previous?.handles ?? new ProcHandles();
  const sampling: Sampling = { previous, takenAt, uptime, handles, stdinTarget, pidCount: pids.length };
  const cpu = new Map<number, { ticks: number; startTicks: number }>();
  const details = new Map<number, Kept>();
  const samples: ProcessSample[] = [];
  const counters = new Map<number, ProgressCounters>();
  const progress: ProgressDelta[] = [];
  const wakeups = new Map<number, number>();
  const wanted = new Set(pids);
  for (const pid of wanted) {
    const sampled = samplePid(pid, sampling);
    if (!sampled) continue;
    cpu.set(pid, sampled.cpu);
    details.set(pid, sampled.kept);
    counters.set(pid, sampled.counters);
    if (sampled.moved) progress.push(sampled.moved);
    if (sampled.wakeups !== null) wakeups.set(pid, sampled.wakeups);
    samples.push(sampled.sample);
  }
  handles.retain(wanted);
  const terminalWaits =
    terminal === 'pty' && stdinTarget !== null
      ? findTerminalWaits(samples, stdinTarget)
      : new Map<number, TerminalWait>();
  const processes = linkChildren(samples);
  const [rootPid] = pids;
  const netSegments = rootPid === undefined ? null : namespaceDataSegments(rootPid);
  const waits = {
    relations:
      options.relations === false
        ? []
        : findRelations(
            processes,
            new Map([...details].map(([pid, kept]) => [pid, kept.details])),
            rootPid ?? -1,
            wakeups,
          ),
    progress,
    intervalMs: previous ? takenAt - previous.takenAt : 0,
    netSegments: netSegments !== null && previous?.netSegments != null ? netSegments - previous.netSegments : null,
  };
  return {
    snapshot: { source: 'proc', processes, waits },
    takenAt,
    cpu,
    stdinTarget,
    terminalWaits,
    handles,
    details,
    counters,
    netSegments,
  };
}

/** What sampling each pid of one tree shares: the previous sample, this one's clock, the kept descriptors, the stdin. */
interface Sampling {
  readonly previous: TreeSample | null | undefined;
  readonly takenAt: number;
  /** seconds since boot, from /proc/uptime. */
  readonly uptime: number;
  readonly handles: ProcHandles;
  readonly stdinTarget: string | null;
  readonly pidCount: number;
}

/** One pid's sample, and what the next sample keeps of it. */
interface PidSample {
  readonly cpu: { ticks: number; startTicks: number };
  readonly kept: Kept;
  readonly counters: ProgressCounters;
  readonly moved: ProgressDelta | null;
  /** times its main thread was put on a CPU since the previous sample; null for a pid first seen now. */
  readonly wakeups: number | null;
  readonly sample: ProcessSample;
}

/**
 * Reads one pid: its stat line every time, its details only if it ran since they were read (else the kept ones), and
 * its CPU % over the interval (the lifetime average for a pid first seen now); null when the pid is gone.
 */
function samplePid(pid: number, sampling: Sampling): PidSample | null {
  const { previous, takenAt, handles } = sampling;
  // A kept descriptor of a process that is gone answers null once and is dropped; the second read opens the pid anew.
  const statText = handles.read(pid, 'stat') ?? handles.read(pid, 'stat');
  const stat = statText === null ? null : parseStat(statText);
  if (!stat) return null;
  const before = previous?.cpu.get(pid);
  // A pid first seen now (or reused) gets its lifetime average, which is exact for one born this interval.
  const cpuPercent =
    previous && before && before.startTicks === stat.startTicks
      ? percent(stat.cpuTicks - before.ticks, (takenAt - previous.takenAt) / 1000)
      : percent(stat.cpuTicks, sampling.uptime - stat.startTicks / CLOCK_TICKS);
  // schedstat: ns the main thread ran, and ns it waited runnable on a run queue (what outside load takes away).
  const [ranText = '', queuedText = '', runsText = ''] = (handles.read(pid, 'schedstat') ?? '').split(' ');
  const ranNs = stat.threads === 1 ? ranText : '';
  const kept = before && before.startTicks === stat.startTicks ? previous?.details.get(pid) : undefined;
  const current = unchanged(kept, ranNs, stat) ? kept.details : readDetails(pid, stat, sampling.pidCount, handles);
  // Its exit closes a process's descriptors before it turns zombie: an empty list from one that ended while it was read
  // says nothing of what it held, so it is skipped like a pid that vanished (a live one with none stays: unreadable).
  if (current.fds.total === 0 && !isLive(pid)) return null;
  const keptCounters = previous?.counters.get(pid);
  const now: ProgressCounters = {
    startTicks: stat.startTicks,
    runNs: Number(ranText) || 0,
    queuedNs: Number(queuedText) || 0,
    runs: Number(runsText) || 0,
    cpuTicks: stat.cpuTicks,
    rchar: current.readBytes,
    wchar: current.writeBytes,
    readBytes: current.storage.read,
    writeBytes: current.storage.write,
    // A process that has not run since cannot have written: its files keep the sizes they had.
    sizes: current === kept?.details && keptCounters ? keptCounters.sizes : fileSizes(pid, current.links),
  };
  const intervalMs = previous ? takenAt - previous.takenAt : 0;
  return {
    cpu: { ticks: stat.cpuTicks, startTicks: stat.startTicks },
    kept: { ranNs, state: stat.state, details: current },
    counters: now,
    moved: progressDelta(pid, keptCounters, now),
    wakeups: keptCounters && keptCounters.startTicks === now.startTicks ? now.runs - keptCounters.runs : null,
    sample: processSample(
      pid,
      stat,
      current,
      { cpuPercent, ...demand(keptCounters, now, intervalMs) },
      sampling.stdinTarget !== null && current.stdinLink === sampling.stdinTarget,
    ),
  };
}

/** A pid's ProcessSample from its stat line and details, with the CPU figures this interval measured of it. */
function processSample(
  pid: number,
  stat: StatFields,
  current: ProcDetails,
  cpu: { readonly cpuPercent: number; readonly demandPercent?: number },
  stdinIsHarnessPipe: boolean,
): ProcessSample {
  const { args, wchan, threadWchans, otherThreads, readBytes, writeBytes, syscall, fds } = current;
  return {
    pid,
    ppid: stat.ppid,
    pgid: stat.pgid,
    sid: stat.sid,
    command: stat.command,
    state: stat.state,
    threads: stat.threads,
    ...cpu,
    rssKb: stat.rssPages * pageSizeKb(),
    args,
    wchan,
    threadWchans,
    ...(otherThreads === undefined ? {} : { otherThreads }),
    readBytes,
    writeBytes,
    syscall,
    fds,
    stdinIsHarnessPipe,
    children: [],
  };
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
function agentInput(pids: readonly number[], terminal: Terminal): string | null {
  const [rootPid, ...rest] = pids;
  if (rootPid === undefined) return null;
  if (terminal === 'pty') {
    for (const pid of rest) {
      const target = fdTarget(pid, 0);
      const stat = readPidFile(pid, 'stat');
      if (target && PTY_SLAVE.test(target) && stat !== null && parseStat(stat)?.ppid === rootPid) return target;
    }
    return null;
  }
  const target = fdTarget(rootPid, 0);
  return target && /^(pipe:|socket:|\/dev\/pts\/)/.test(target) ? target : null;
}

/**
 * The share of the interval the main thread ran or waited to run: near 100 for a spinning process however little CPU
 * a loaded machine gives it, near 0 for one that sleeps. Absent on the first sample of a process.
 */
function demand(
  before: ProgressCounters | undefined,
  now: ProgressCounters,
  intervalMs: number,
): { demandPercent?: number } {
  if (!before || before.startTicks !== now.startTicks || intervalMs <= 0 || now.runNs === 0) return {};
  const busyNs = now.runNs - before.runNs + (now.queuedNs - before.queuedNs);
  return { demandPercent: Math.round(Math.min(100, Math.max(0, busyNs / (intervalMs * 1e4)))) };
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
