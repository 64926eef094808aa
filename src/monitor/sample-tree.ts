import type { ProcessSample, TreeSnapshot } from '../types/process.js';
import { listProcDir, pageSizeKb, readProcFile, readProcLink } from './proc-files.js';
import { ProcHandles } from './proc-handles.js';
import { processArgs } from './process-args.js';
import { parseIo, parseStat, parseSyscall, parseUptime, parseWchan } from './proc-parse.js';
import { findTerminalWaits, PTY_SLAVE, type TerminalWait } from './terminal-waits.js';

/** Clock ticks per second; `getconf CLK_TCK` is 100 on every Linux we run on, and USER_HZ is fixed ABI. */
const CLOCK_TICKS = 100;
const MAX_ARGS_CHARS = 200;
// Bounds the cost of a sample for a process with thousands of fds or threads; totals stay exact.
const MAX_FD_LINKS = 256;
const MAX_THREADS = 64;

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
    const fds = countFds(pid);
    samples.push({
      pid,
      ppid: stat.ppid,
      pgid: stat.pgid,
      sid: stat.sid,
      command: stat.command,
      args: processArgs(pid, stat, pids.length, MAX_ARGS_CHARS, () => handles.read(pid, 'cmdline', 'utf8')),
      state: stat.state,
      wchan: parseWchan(handles.read(pid, 'wchan')),
      threadWchans: stat.threads > 1 ? threadWchans(pid) : [],
      threads: stat.threads,
      cpuPercent,
      rssKb: stat.rssPages * pageSizeKb(),
      ...parseIo(handles.read(pid, 'io') ?? ''),
      syscall: parseSyscall(handles.read(pid, 'syscall') ?? ''),
      fds: fds.counts,
      stdinIsHarnessPipe: stdinTarget !== null && fds.stdin === stdinTarget,
      children: [],
    });
  }
  handles.retain(wanted);
  const terminalWaits = terminal === 'pty' && stdinTarget !== null ? findTerminalWaits(samples, stdinTarget) : new Map<number, TerminalWait>();
  return { snapshot: { source: 'proc', processes: linkChildren(samples) }, takenAt, cpu, stdinTarget, terminalWaits, handles };
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

function threadWchans(pid: number): string[] {
  const tids = listProcDir(`/proc/${pid}/task`);
  const wchans: string[] = [];
  for (const tid of tids.slice(0, MAX_THREADS + 1)) {
    if (tid === String(pid)) continue;
    const text = readProcFile(`/proc/${pid}/task/${tid}/wchan`);
    if (text !== null) wchans.push(parseWchan(text));
  }
  return wchans.slice(0, MAX_THREADS);
}

/** Pipe, socket and total descriptor counts, and where fd 0 points (read in the same pass). */
function countFds(pid: number): { readonly counts: ProcessSample['fds']; readonly stdin: string | null } {
  const fds = listProcDir(`/proc/${pid}/fd`);
  let pipes = 0;
  let sockets = 0;
  let stdin: string | null = null;
  for (const fd of fds.slice(0, MAX_FD_LINKS)) {
    const target = readProcLink(`/proc/${pid}/fd/${fd}`) ?? '';
    if (fd === '0') stdin = target;
    if (target.startsWith('pipe:')) pipes++;
    else if (target.startsWith('socket:')) sockets++;
  }
  // fd 0 past the cap (listing order is numeric, so only with a huge table) is read on its own.
  if (stdin === null && fds.includes('0')) stdin = readProcLink(`/proc/${pid}/fd/0`);
  return { counts: { pipes, sockets, total: fds.length }, stdin };
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
