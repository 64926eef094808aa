import { waitKind } from '../monitor/index.js';
import type { HangClass } from '../types/case.js';
import type { Classification, Tick } from '../types/process.js';
import type { Terminal } from '../types/terminal.js';

/**
 * The taxonomy label a draft case gets from the monitor's last hung classification (the author may change it):
 * the classification says what the tree is doing, the wait channels tell a full pipe from an empty one and an
 * orphan holding the pipe from a plain reader.
 */
export function hangClassOf(tick: Tick | undefined, terminal: Terminal): HangClass {
  if (tick === undefined) return 'sleep-forever';
  // A reader parked on a pipe reads "sleeping" or "waiting" to the classifier; the pipe is the story.
  const pipeRead = tick.snapshot.processes.some((process) => waitKind(process) === 'pipe-read');
  if (pipeRead && ['sleeping', 'waiting-on-child', 'blocked-on-pipe'].includes(tick.classification))
    return pipeClass(tick);
  const byClassification: Record<Classification, HangClass> = {
    'blocked-on-stdin': terminal === 'pty' ? 'tty-prompt' : 'stdin-wait',
    'blocked-on-pipe': pipeClass(tick),
    'deadlock-futex': 'lock-deadlock',
    'waiting-on-child': 'child-wait',
    sleeping: 'sleep-forever',
    'busy-no-output': 'busy-loop',
    stopped: 'child-wait',
    zombie: 'child-wait',
    'output-flood': 'output-flood',
    progressing: 'sleep-forever',
    exited: 'sleep-forever',
  };
  return byClassification[tick.classification];
}

function pipeClass(tick: Tick): HangClass {
  const processes = tick.snapshot.processes;
  if (processes.some((process) => waitKind(process) === 'pipe-write')) return 'pipe-write-block';
  const readers = new Set(
    processes.filter((process) => waitKind(process) === 'pipe-read').map((process) => process.pid),
  );
  const descends = (pid: number): boolean => {
    const parent = processes.find((process) => process.pid === pid)?.ppid;
    return parent !== undefined && (readers.has(parent) || descends(parent));
  };
  // Someone outside the reader's own subtree still runs: it holds the other end (a backgrounded grandchild).
  const outsider = processes.some(
    (process) => !readers.has(process.pid) && !descends(process.pid) && process.state !== 'Z',
  );
  return outsider ? 'orphan-holds-pipe' : 'pipe-read-block';
}
