import type { KillDecider, KillRecord, SignalName, SignalStep } from '../../types/process.js';
import { POLL_MS } from './poll.js';
import type { KillGraces } from '../types.js';
import { sleep } from './signals.js';
import type { ProcessTree } from './tree.js';

export interface KillRequest {
  readonly by: KillDecider;
  readonly reason: string;
  readonly firstSignal: SignalName;
  readonly graces: KillGraces;
}

/**
 * Kills a tree the way a careful person at a terminal would, stopping as soon as nothing is left:
 * the first signal to the process group (Ctrl-C), then SIGTERM + SIGCONT to every process (a stopped one only
 * acts on TERM once continued), then SIGKILL, repeated until the tree is empty or the last grace runs out.
 * A SIGTERM first signal goes to every process at once (with SIGCONT), then SIGKILL.
 */
export async function escalate(tree: ProcessTree, request: KillRequest): Promise<KillRecord> {
  const kill = startKill(tree, request);
  const { initial, step, goneWithin, record } = kill;
  if (initial.length === 0) return record(0, false);

  if (request.firstSignal !== 'SIGKILL') {
    const gone = await signalBeforeKill(tree, request, kill);
    if (gone !== null) return record(gone, false);
  }

  step(
    tree.mechanism === 'cgroup-v2' ? 'cgroup.kill' : 'SIGKILL',
    request.firstSignal === 'SIGKILL' ? initial : tree.pids(),
  );
  tree.killAll();
  // Re-sent on every poll: a process forked between listing and killing is caught on the next pass.
  return record(await goneWithin(request.graces.afterKillMs, () => tree.killAll()), true);
}

/** One kill under way: the tree it started from, and the steps, looks and record its phases share. */
interface KillInProgress {
  readonly initial: number[];
  /** Recorded just before the signal goes out, so atMs is when it was sent. */
  step(signal: SignalStep['signal'], alive: readonly number[]): void;
  /** When (ms into the kill) a look first found the tree empty, or null once `ms` passed with it still there. */
  goneWithin(ms: number, eachPoll?: () => void): Promise<number | null>;
  record(goneMs: number | null, escalatedToKill: boolean): KillRecord;
}

function startKill(tree: ProcessTree, request: KillRequest): KillInProgress {
  const start = performance.now();
  const initial = tree.pids();
  // Counted as the monitor shows the tree: a jail's nsenter is plumbing, killed with the rest but not counted.
  const shownCount = (pids: readonly number[]): number => {
    const shown = new Set(tree.shownPids());
    return pids.filter((pid) => shown.has(pid)).length;
  };
  // A jail's launcher that forks its command between the two looks would leave none of `initial` shown; until it has
  // forked it is the command, so a tree that was not empty counts at least one.
  const treeSize = initial.length === 0 ? 0 : Math.max(1, shownCount(initial));
  const elapsed = (): number => Math.round((performance.now() - start) * 10) / 10;
  const steps: SignalStep[] = [];
  const empty = emptyLook(tree);
  const goneWithin = async (ms: number, eachPoll?: () => void): Promise<number | null> => {
    const deadline = performance.now() + ms;
    for (let poll = 0; ; poll++) {
      const at = elapsed();
      if (await empty()) return at;
      if (performance.now() >= deadline) return null;
      eachPoll?.();
      // A killed process is usually gone within 1–2 ms: look often at first, so goneMs is not rounded up to a poll.
      await sleep(poll < 8 ? 1 : POLL_MS);
    }
  };
  // survivors is always a look after the kill (the cgroup, or the namespaces and the escapers the namespace scan finds,
  // or the group and marker scan), never inferred from an earlier empty look: what it sees alive is not gone.
  const record = (goneMs: number | null, escalatedToKill: boolean): KillRecord => {
    const survivors = tree.pids();
    return {
      by: request.by,
      reason: request.reason,
      mechanism: tree.mechanism,
      treeSize,
      steps,
      escalatedToKill,
      goneMs: survivors.length === 0 ? goneMs : null,
      survivors,
    };
  };
  return {
    initial,
    step: (signal, alive) => {
      steps.push({ signal, atMs: elapsed(), alive: shownCount(alive) });
    },
    goneWithin,
    record,
  };
}

/**
 * Whether the tree is empty. The marker scan cannot see a process in the middle of exec (its environ is in flux): on
 * that mechanism an empty tree is believed only when a second look a poll later is empty too.
 */
function emptyLook(tree: ProcessTree): () => Promise<boolean> {
  const confirmEmpty = tree.mechanism === 'process-group+scan';
  return async () => {
    if (tree.pids().length > 0) return false;
    if (!confirmEmpty) return true;
    await sleep(POLL_MS);
    return tree.pids().length === 0;
  };
}

/** The signals before SIGKILL: when (ms into the kill) the tree was gone after them, or null when it was not. */
async function signalBeforeKill(tree: ProcessTree, request: KillRequest, kill: KillInProgress): Promise<number | null> {
  const { initial, step, goneWithin } = kill;
  if (request.firstSignal === 'SIGTERM') {
    // A budget or harness stop, not a Ctrl-C: TERM to every process at once, so the whole kill fits in one grace.
    step('SIGTERM', initial);
    tree.signalGroup('SIGTERM');
    tree.signalEach(initial, 'SIGTERM');
    step('SIGCONT', initial);
    tree.signalEach(initial, 'SIGCONT');
    return goneWithin(request.graces.afterTermMs);
  }
  step(request.firstSignal, initial);
  tree.signalGroup(request.firstSignal);
  const afterFirst = await goneWithin(request.graces.afterFirstMs);
  if (afterFirst !== null) return afterFirst;

  const alive = tree.pids();
  step('SIGTERM', alive);
  tree.signalEach(alive, 'SIGTERM');
  step('SIGCONT', alive);
  tree.signalEach(alive, 'SIGCONT');
  return goneWithin(request.graces.afterTermMs);
}
