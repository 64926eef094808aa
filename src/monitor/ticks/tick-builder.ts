import { innerPid } from '../../proc/index.js';
import type { SandboxProcess } from '../../sandbox/index.js';
import type { Tick, TreeSnapshot } from '../../types/process.js';
import { classify } from '../classify/classify.js';
import type { OutputIntake } from '../output/output-intake.js';
import { DEFAULTS } from '../../defaults.js';
import { procAvailable } from '../../proc/index.js';
import { RepetitionTracker } from '../classify/repetition.js';
import { heldLocks } from '../waits/held-locks.js';
import { sampleTree, type TreeSample } from '../sample/sample-tree.js';
import { DeathWatch } from '../sample/death-watch.js';
import type { Terminal } from '../../types/terminal.js';

const UNAVAILABLE: TreeSnapshot = { source: 'unavailable', processes: [] };

/** Assembles each tick from the output window, a fresh /proc sample and the classifier. */
export class TickBuilder {
  private readonly child: SandboxProcess;
  private readonly startedAt: number;
  private readonly intake: OutputIntake;
  private readonly useProc = procAvailable();
  private readonly terminal: Terminal;
  private sample: TreeSample | null;
  private seq = 0;
  private readonly innerPids = new Map<number, number | null>();
  private lastTickAt: number;
  private readonly repetition = new RepetitionTracker();
  private readonly deaths: DeathWatch;

  /** `startedAt` on the performance.now() clock. Samples at once, while the root surely lives: its fd 0 is the harness's stdin. */
  constructor(child: SandboxProcess, startedAt: number, intake: OutputIntake) {
    this.child = child;
    this.startedAt = startedAt;
    this.intake = intake;
    this.terminal = child.terminal ?? 'pipe';
    this.lastTickAt = startedAt;
    this.deaths = new DeathWatch(startedAt);
    const pids = this.livePids();
    this.sample = this.useProc ? sampleTree(pids, null, this.terminal) : null;
    if (this.useProc) this.deaths.look(pids);
  }

  /** A look for processes of the tree that ended, between ticks: a zombie reaped before the next tick would go unseen. */
  lookForDeaths(): void {
    if (this.useProc) this.deaths.look();
  }

  next(): Tick {
    const now = performance.now();
    const output = this.intake.window.take();
    const pids = this.livePids();
    this.sample = this.useProc ? sampleTree(pids, this.sample, this.terminal) : null;
    if (this.useProc) this.deaths.look(pids);
    const snapshot = this.withEnded(this.withInnerPids(this.sample?.snapshot ?? UNAVAILABLE));
    const sinceOutputMs = now - (this.intake.lastOutputAt ?? this.startedAt);
    const repetition = output.bytes > 0 ? this.repetition.feed(output.text) : null;
    // the descriptors' lock lines are read only once the output repeats: a loop that polls for a lock shows nowhere else
    const sample = this.sample;
    const locks =
      sample && repetition && repetition.lines >= DEFAULTS.repeatMinLines
        ? heldLocks(snapshot.processes, (pid) => sample.details.get(pid)?.details.links ?? [])
        : [];
    const verdict = classify({
      snapshot,
      rootPid: this.child.pid,
      newBytes: output.bytes,
      intervalMs: now - this.lastTickAt,
      sinceOutputMs,
      partialLine: output.partialLine,
      lastLine: output.lastLine,
      foldedLines: output.foldedLines,
      windowLines: output.lines,
      terminalWaits: this.sample?.terminalWaits,
      repetition,
      heldLocks: locks,
      ended: this.deaths.all(),
    });
    this.lastTickAt = now;
    const { text, bytes, cutBytes, foldedLines, partialLine } = output;
    return {
      commandId: this.child.commandId,
      seq: ++this.seq,
      elapsedMs: now - this.startedAt,
      sinceOutputMs,
      totalOutputBytes: this.intake.totalBytes,
      output: { text, bytes, cutBytes, foldedLines, partialLine },
      snapshot,
      classification: verdict.classification,
      reason: verdict.reason,
      culprit: verdict.pid,
    };
  }

  /**
   * Each process's pid as the command sees it (its PID namespace under bubblewrap), read once per process: a tick
   * that says "pid 4711" must name a pid the agent's own `kill` can reach.
   */
  private withInnerPids(snapshot: TreeSnapshot): TreeSnapshot {
    if (snapshot.processes.length === 0) return snapshot;
    const processes = snapshot.processes.map((process) => {
      let inner = this.innerPids.get(process.pid);
      if (inner === undefined) {
        inner = innerPid(process.pid);
        this.innerPids.set(process.pid, inner);
      }
      return inner === null || inner === process.pid ? process : { ...process, innerPid: inner };
    });
    return { ...snapshot, processes };
  }

  /** The ends seen since the last tick go into its snapshot, each once; the classifier is given all of them. */
  private withEnded(snapshot: TreeSnapshot): TreeSnapshot {
    const ended = this.deaths.takeNew();
    return snapshot.waits && ended.length > 0 ? { ...snapshot, waits: { ...snapshot.waits, ended } } : snapshot;
  }

  /** The root first (sampleTree reads the harness's stdin from it), then every live pid the sandbox knows. */
  private livePids(): number[] {
    try {
      return [this.child.pid, ...this.child.pids()];
    } catch {
      return [this.child.pid];
    }
  }
}
