import { DEFAULTS } from '../../defaults.js';
import { formatBytes, seconds } from '../../types/units.js';
import {
  looksHung,
  type Classification,
  type ProcessEnd,
  type ProcessSample,
  type TreeSnapshot,
} from '../../types/process.js';
import { deathNote } from '../waits/death-note.js';
import { looksLikePrompt, visibleLine } from './prompt.js';
import { restartLoop } from './restart-loop.js';
import type { Repetition } from './repetition.js';
import type { TerminalWait } from '../sample/terminal-waits.js';
import { leavesDeepestFirst, parentOf } from '../sample/tree.js';
import { detachedNote, diagnose, progressNote } from '../waits/diagnose.js';
import type { HeldLock } from '../waits/held-locks.js';
import { nameOf } from '../waits/names.js';
import { allThreadsInFutex, describeProcess, isBusy, waitKind, type WaitKind } from './wait-kind.js';

export interface ClassifyInput {
  readonly snapshot: TreeSnapshot;
  /** pid the harness spawned; when it is gone but others live, they hold the output pipe. */
  readonly rootPid: number;
  /** bytes of output since the previous tick, and the wall ms that tick interval covered. */
  readonly newBytes: number;
  readonly intervalMs: number;
  readonly sinceOutputMs: number;
  /** the output ends in an unfinished line (a prompt, a progress bar), and that line. */
  readonly partialLine: boolean;
  readonly lastLine: string;
  /** identical consecutive lines folded in this tick's bounded window, and the lines in it. */
  readonly foldedLines: number;
  readonly windowLines: number;
  /** pty mode: processes waiting for a key at the terminal, by how (sampleTree finds them). */
  readonly terminalWaits?: ReadonlyMap<number, TerminalWait>;
  /** the run of repeated lines the output ends in, across ticks (see repetition.ts). */
  readonly repetition?: Repetition | null;
  /** locks held through the tree's descriptors, read only once the output repeats (see waits/held-locks.ts). */
  readonly heldLocks?: readonly HeldLock[];
  /** every process of the tree seen ending so far in the command (see sample/death-watch.ts). */
  readonly ended?: readonly ProcessEnd[];
}

export interface Verdict {
  readonly classification: Classification;
  /** one line saying why. */
  readonly reason: string;
  /** the process the verdict names as the cause, when there is one (host pid). */
  readonly pid: number | null;
}

/** Over 1 MiB per second of interval is more than anyone reads. */
const FLOOD_BYTES_PER_SECOND = 1024 * 1024;
/** A slower stream still floods when nearly every line repeats the previous one. */
const REPEAT_FLOOD_BYTES_PER_SECOND = 16 * 1024;
const REPEAT_FLOOD_MIN_LINES = 20;
const REPEAT_FLOOD_RATIO = 0.8;

/** A run of repeated lines this long, and nothing else moving, is a loop rather than a slow start (twins retry ~10 times). */
const REPEAT_MIN_LINES = DEFAULTS.repeatMinLines;

const IDLE_KINDS: ReadonlySet<WaitKind> = new Set(['event-loop', 'child-wait', 'sleep', 'pipe-read', 'other']);
/** Among idle leaves, a specific wait (a lock, a socket, a pipe) tells more than an event loop or a plain sleep. */
const LEAF_RANK: Partial<Record<WaitKind, number>> = { other: 0, disk: 1, 'pipe-read': 2, 'event-loop': 3, sleep: 4 };

/**
 * Proposes what the command is doing, in a fixed precedence; the agent may use or ignore it. Where a wait-for relation
 * explains the wait (see waits/diagnose.ts) the reason names the culprit and the relation instead of the states alone.
 */
export function classify(input: ClassifyInput): Verdict {
  // said from the deaths across ticks, which the death note would only repeat
  const restarting = input.newBytes === 0 ? restartLoop(input.snapshot, input.ended ?? []) : null;
  if (restarting) return verdict('sleeping', restarting.sentence, restarting.supervisor);
  const found = diagnosed(input);
  if (!looksHung(found.classification)) return found;
  const notes = [
    deathNote(input.snapshot, input.ended ?? [], found.reason),
    detachedNote(input.snapshot, input.rootPid),
  ].filter((note) => note !== null);
  return notes.length > 0 ? { ...found, reason: [found.reason, ...notes].join('; ') } : found;
}

function diagnosed(input: ClassifyInput): Verdict {
  const retrying = retryLoop(input);
  const base = classifyStates(input, retrying);
  // the loop is seen over many ticks; a relation of this instant (the loop's helper mid-call) says less
  if (base === retrying) return base;
  if (
    !looksHung(base.classification) ||
    base.classification === 'output-flood' ||
    base.classification === 'busy-no-output'
  )
    return base;
  if (base.classification === 'blocked-on-stdin') return base;
  const diagnosis = diagnose(input.snapshot);
  if (!diagnosis) return base;
  // what keeps an idle process alive explains an idle tree; a process stuck writing or locked is the story instead
  if (diagnosis.idleOnly && base.classification !== 'sleeping') return base;
  return {
    classification: diagnosis.classification ?? base.classification,
    reason: `${diagnosis.sentence}; no output for ${seconds(input.sinceOutputMs)}`,
    pid: diagnosis.culprit,
  };
}

/**
 * The verdict from the output rate and the processes' states alone, in a fixed precedence: a flood, a wait for input,
 * the retry loop, new output, nothing left; then a stuck process (stopped, busy, blocked, deadlocked, orphaned) before
 * an idle leaf.
 */
function classifyStates(input: ClassifyInput, retrying: Verdict | null): Verdict {
  const silence = `no output for ${seconds(input.sinceOutputMs)}`;
  const rate = input.newBytes / Math.max(input.intervalMs / 1000, 0.001);
  const flood = floodVerdict(input, rate);
  if (flood) return flood;
  const processes = input.snapshot.processes;
  const tree: TreeStates = { input, processes, kinds: new Map(processes.map((p) => [p.pid, waitKind(p)])), silence };
  const asked = stdinVerdict(tree);
  if (asked) return asked;
  if (retrying) return retrying;
  if (input.newBytes > 0) {
    return verdict('progressing', `${formatBytes(input.newBytes)} of new output in ${seconds(input.intervalMs)}`);
  }
  if (input.snapshot.source === 'unavailable') {
    return verdict('sleeping', `${silence}; no /proc on this host, so nothing is known about the processes`);
  }
  if (processes.length === 0) return verdict('exited', 'no process of the tree is left');
  const moving = progressNote(input.snapshot, input.rootPid);
  if (moving) return verdict('progressing', `${silence}, but ${moving}`);
  return stuckVerdict(tree) ?? idleVerdict(tree);
}

/** One tick's processes with the wait kind of each, and the silence so far in words. */
interface TreeStates {
  readonly input: ClassifyInput;
  readonly processes: readonly ProcessSample[];
  readonly kinds: ReadonlyMap<number, WaitKind>;
  readonly silence: string;
}

/** The first process in a wait of this kind, leaves first. */
function findKind(tree: TreeStates, kind: WaitKind): ProcessSample | undefined {
  return leavesFirst(tree.processes).find((p) => tree.kinds.get(p.pid) === kind);
}

/** An output flood: more bytes than anyone reads, or a slower stream of nearly all repeated lines; null otherwise. */
function floodVerdict(input: ClassifyInput, rate: number): Verdict | null {
  if (rate >= FLOOD_BYTES_PER_SECOND) {
    return verdict(
      'output-flood',
      `${formatBytes(input.newBytes)} of output in ${seconds(input.intervalMs)} (${formatBytes(rate)}/s)${flooder(input.snapshot)}`,
      topWriter(input.snapshot),
    );
  }
  if (
    rate >= REPEAT_FLOOD_BYTES_PER_SECOND &&
    input.windowLines >= REPEAT_FLOOD_MIN_LINES &&
    input.foldedLines >= input.windowLines * REPEAT_FLOOD_RATIO
  ) {
    return verdict(
      'output-flood',
      `the same lines repeat (${input.foldedLines} folded), ${formatBytes(rate)}/s${flooder(input.snapshot)}`,
      topWriter(input.snapshot),
    );
  }
  return null;
}

/**
 * Blocked on stdin: a process reads stdin or the terminal, polls the terminal for a key, or idles in an event loop
 * after output that looks like a question (or, without /proc, the output alone looks like one); null otherwise.
 */
function stdinVerdict(tree: TreeStates): Verdict | null {
  const { input, processes, kinds, silence } = tree;
  const prompt = input.partialLine ? ` at the prompt "${visibleLine(input.lastLine).slice(-80)}"` : '';

  // A read on the harness's stdin (or the terminal, on any fd) is certain: nobody but the agent will answer, even right after printing.
  const terminalWait = (p: ProcessSample): TerminalWait | undefined => input.terminalWaits?.get(p.pid);
  const reader = findKind(tree, 'stdin-read') ?? leavesFirst(processes).find((p) => terminalWait(p) === 'read');
  if (reader && (input.newBytes === 0 || input.partialLine)) {
    const what = terminalWait(reader) === 'read' ? 'the terminal' : 'stdin';
    return verdict('blocked-on-stdin', `${describeProcess(reader)} is reading ${what}${prompt}`, reader);
  }
  const quiet = input.sinceOutputMs >= Math.min(1000, input.intervalMs / 2);
  const allIdle = processes.every((p) => IDLE_KINDS.has(kinds.get(p.pid) ?? 'other'));
  // A full-screen program (an editor, a raw-mode menu) idles in a poll that watches the terminal: it waits for a key.
  const poller = leavesFirst(processes).find((p) => terminalWait(p) === 'poll');
  if (poller && allIdle && quiet && input.newBytes === 0) {
    return verdict(
      'blocked-on-stdin',
      `${describeProcess(poller)} waits for a key: it polls the terminal, ${silence}`,
      poller,
    );
  }
  // An idle event loop (Node readline, asyncio) whose output stopped on something that looks like a question.
  const loop = processes.find((p) => kinds.get(p.pid) === 'event-loop' && p.stdinIsHarnessPipe);
  const asks = quiet && input.partialLine && looksLikePrompt(input.lastLine);
  if (loop && allIdle && asks) {
    return verdict(
      'blocked-on-stdin',
      `${describeProcess(loop)} idles with stdin open, ${silence}, output ends${prompt}`,
      loop,
    );
  }
  if (input.snapshot.source === 'unavailable' && asks) {
    return verdict(
      'blocked-on-stdin',
      `${silence}, output ends${prompt}; no /proc on this host to confirm a read on stdin`,
    );
  }
  return null;
}

/**
 * A process that holds the rest up: stopped, busy without output, writing to a full pipe, all threads on a futex, or
 * still running after the root exited (holding the output open); null when none is.
 */
function stuckVerdict(tree: TreeStates): Verdict | null {
  const { input, processes, kinds, silence } = tree;
  const stopped = findKind(tree, 'stopped');
  if (stopped)
    return verdict('stopped', `${describeProcess(stopped)} is stopped${waiter(processes, stopped)}`, stopped);
  const busy = [...processes].sort((a, b) => b.cpuPercent - a.cpuPercent).find(isBusy);
  if (busy) return busyVerdict(busy, silence);
  const writer = findKind(tree, 'pipe-write');
  if (writer)
    return verdict(
      'blocked-on-pipe',
      `${describeProcess(writer)} is blocked writing to a full pipe${waiter(processes, writer)}`,
      writer,
    );
  const locked = leavesFirst(processes).find(allThreadsInFutex);
  if (locked) {
    const threads = locked.threads === 1 ? 'its only thread waits' : `all ${locked.threads} threads wait`;
    return verdict('deadlock-futex', `${describeProcess(locked)}: ${threads} on locks (futex) at ~0% CPU`, locked);
  }
  const root = processes.find((p) => p.pid === input.rootPid);
  if (!root || kinds.get(root.pid) === 'zombie') return leftVerdict(tree);
  return null;
}

/**
 * The root exited and these still run: a process that can hold the output open (a pipe, a socket or a terminal among
 * its descriptors, or descriptors unreadable) keeps the command from ending; one with none is left behind (a daemon
 * that redirected its output), so as a terminal sees it the command is over.
 */
function leftVerdict({ processes, kinds }: TreeStates): Verdict | null {
  const alive = leavesFirst(processes).filter((p) => kinds.get(p.pid) !== 'zombie');
  const holder = alive.find(mayHoldOutput);
  if (holder)
    return verdict(
      'zombie',
      `the command's root exited but ${describeProcess(holder)} still runs, holding the output open`,
      holder,
    );
  const [left] = alive;
  if (!left) return null;
  const others = alive.length > 1 ? ` and ${alive.length - 1} more` : '';
  return verdict(
    'exited',
    `the command's root exited; ${describeProcess(left)}${others} still run but hold no pipe, socket or terminal, so not its output: left behind, not the command`,
  );
}

function mayHoldOutput(process: ProcessSample): boolean {
  const { pipes, sockets, terminals, total } = process.fds;
  // no count of terminals (an older trace) or no descriptors read: it may hold the output
  return total === 0 || terminals === undefined || pipes + sockets + terminals > 0;
}

function busyVerdict(busy: ProcessSample, silence: string): Verdict {
  // The twins (an endless loop, a long computation) differ in nothing /proc shows: say so rather than guess.
  const twins = 'pure compute, no output, no file writes: a long run and an endless loop look alike from outside';
  const starved =
    (busy.demandPercent ?? 0) >= busy.cpuPercent + 30
      ? ` (running or queued for a core ${busy.demandPercent}% of the time: the machine is loaded)`
      : '';
  return verdict(
    'busy-no-output',
    `${describeProcess(busy)} uses ${Math.round(busy.cpuPercent)}% CPU${starved}, ${silence}; ${twins}`,
    busy,
  );
}

/**
 * The verdict on the most telling idle leaf (a specific wait before an event loop or a sleep): a pipe nobody will
 * write, a child waited for, a shell polling with sleep, or plain idle; exited when only zombies are left.
 */
function idleVerdict(tree: TreeStates): Verdict {
  const { input, processes, kinds, silence } = tree;
  const rank = (p: ProcessSample): number => LEAF_RANK[kinds.get(p.pid) ?? 'other'] ?? 5;
  // sort is stable: within a rank the deepest leaf stays first
  const [leaf] = leavesDeepestFirst(processes)
    .filter((p) => kinds.get(p.pid) !== 'zombie')
    .sort((a, b) => rank(a) - rank(b));
  if (!leaf) return verdict('exited', 'only zombies are left');
  const leafKind = kinds.get(leaf.pid);
  const parentWaits = processes.some((p) => kinds.get(p.pid) === 'child-wait');
  if (
    leafKind === 'pipe-read' &&
    !processes.some((p) => ['sleep', 'event-loop', 'other'].includes(kinds.get(p.pid) ?? ''))
  ) {
    return verdict(
      'blocked-on-pipe',
      `${describeProcess(leaf)} reads a pipe that no process of the tree is about to write`,
      leaf,
    );
  }
  if (parentWaits && (leafKind === 'other' || leafKind === 'disk' || leafKind === 'pipe-read')) {
    return verdict(
      'waiting-on-child',
      `${describeProcess(leaf)} is waited for${waiter(processes, leaf)}, ${silence}`,
      leaf,
    );
  }
  // A shell waiting on a `sleep` is a polling loop (until …; do sleep 1; done): the loop, not this second's sleep, is the cause.
  // Only a sleep shorter than the silence so far: the shell has outlived one sleep already, so it runs them in turn.
  // A `sleep` caught running (R) is this second's sleep starting or ending, not work: the loop still polls.
  const short = sleepSeconds(leaf.args) * 1000 < input.sinceOutputMs;
  const asleep = leafKind === 'sleep' || leaf.state === 'R';
  const sleeper = asleep && leaf.command === 'sleep' && short ? parentOf(processes, leaf) : undefined;
  if (sleeper && kinds.get(sleeper.pid) === 'child-wait') {
    return verdict(
      'sleeping',
      `${nameOf(sleeper)} polls in a loop: it waits on sleep (pid ${leaf.innerPid ?? leaf.pid}), ${silence}`,
      sleeper,
    );
  }
  return verdict('sleeping', `${describeProcess(leaf)} is idle${waiter(processes, leaf)}, ${silence}`, leaf);
}

/**
 * The same line (or the same few lines) again and again, only a count moving, and nothing else the kernel shows: no
 * file grew, no data moved on the network. A retry loop or a wait that polls; where the tree holds a lock on a file
 * that the repeating process also has open, the lock's holder is the cause.
 */
function retryLoop(input: ClassifyInput): Verdict | null {
  const repetition = input.repetition;
  if (!repetition || !repetition.wholeTick || repetition.lines < REPEAT_MIN_LINES || input.newBytes === 0) return null;
  if (progressNote(input.snapshot, input.rootPid)) return null;
  const processes = input.snapshot.processes;
  const writer = topWriter(input.snapshot);
  const what = repetition.period === 1 ? 'the same line' : `the same ${repetition.period} lines`;
  const quoted = visibleLine(repetition.line).slice(0, 100);
  const printed = `${writer ? nameOf(writer) : 'it'} prints ${what} again and again (${repetition.lines} times in a row, only a count moving: "${quoted}") and nothing else changes`;
  const lock =
    (input.heldLocks ?? []).find((held) => writer === undefined || held.others.includes(writer.pid)) ??
    input.heldLocks?.[0];
  if (lock) {
    const byPid = (pid: number): ProcessSample | undefined => processes.find((p) => p.pid === pid);
    // the poller has the file open without the lock; the holder holds it and is not the one polling
    const poller = byPid(lock.others.find((pid) => pid === writer?.pid) ?? lock.others[0] ?? -1) ?? writer;
    const holder =
      lock.holders.find((h) => !lock.others.includes(h.pid)) ??
      lock.holders.find((h) => h.pid !== poller?.pid) ??
      lock.holders[0];
    const holderProcess = holder ? byPid(holder.pid) : undefined;
    if (holder && holderProcess && poller) {
      const caller = ancestorsOf(processes, poller).includes(holder.pid) ? ' its own caller' : '';
      const inherited =
        poller.pid !== holder.pid && lock.holders.some((h) => h.pid === poller.pid)
          ? ` (${nameOf(poller)} inherited that descriptor and keeps it open itself)`
          : '';
      return verdict(
        'sleeping',
        `${nameOf(poller)} prints ${what} again and again (${repetition.lines} times in a row, only a count moving: "${quoted}") and nothing else changes: it polls for the ${lock.lock} lock on ${lock.path}, held by${caller} ${nameOf(holderProcess)} through fd ${holder.fd}${inherited}`,
        holderProcess,
      );
    }
  }
  return verdict('sleeping', `${printed}: a retry loop or a wait that polls, not progress`, writer);
}

function ancestorsOf(processes: readonly ProcessSample[], process: ProcessSample): number[] {
  const out: number[] = [];
  for (
    let parent = parentOf(processes, process);
    parent && !out.includes(parent.pid);
    parent = parentOf(processes, parent)
  )
    out.push(parent.pid);
  return out;
}

function verdict(classification: Classification, reason: string, about?: ProcessSample): Verdict {
  return { classification, reason, pid: about?.pid ?? null };
}

/** Leaves (deepest first), then the rest: a bash in do_wait is less telling than its leaf child. */
function leavesFirst(processes: readonly ProcessSample[]): ProcessSample[] {
  const leaves = leavesDeepestFirst(processes);
  return [...leaves, ...processes.filter((p) => !leaves.includes(p))];
}

function waiter(processes: readonly ProcessSample[], child: ProcessSample): string {
  const parent = parentOf(processes, child);
  return parent && waitKind(parent) === 'child-wait'
    ? `; ${parent.command} (pid ${parent.innerPid ?? parent.pid}) waits for it`
    : '';
}

/** The process that wrote the most since the last sample (wchar), else the busiest: who floods the output. */
function topWriter(snapshot: TreeSnapshot): ProcessSample | undefined {
  const progress = snapshot.waits?.progress ?? [];
  const writer = [...progress].sort((a, b) => b.wchar - a.wchar)[0];
  const byPid = (pid: number | undefined): ProcessSample | undefined =>
    snapshot.processes.find((process) => process.pid === pid);
  return (
    (writer && writer.wchar > 0 ? byPid(writer.pid) : undefined) ??
    [...snapshot.processes].sort((a, b) => b.cpuPercent - a.cpuPercent)[0]
  );
}

function flooder(snapshot: TreeSnapshot): string {
  const writer = topWriter(snapshot);
  return writer ? `, written by ${nameOf(writer)}` : '';
}

/** `sleep 1.000`, `sleep 2s`, `sleep 1m` → seconds; Infinity when the argument is not a plain duration. */
function sleepSeconds(args: string): number {
  const match = /^sleep\s+(\d+(?:\.\d+)?)([smhd]?)$/.exec(args.trim());
  if (!match) return Number.POSITIVE_INFINITY;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
