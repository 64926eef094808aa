import { describe, expect, it } from 'vitest';
import { restartLoop } from '../../src/monitor/classify/restart-loop.js';
import type { ProcessEnd, ProcessSample, TreeSnapshot } from '../../src/types/process.js';

/**
 * Ends written as data for what a real supervisor shows only by chance: one that reaps its worker at once leaves
 * almost every end `gone`, and a look catches the zombie one time in dozens. The polled case is in restart-loop-real.
 */
const supervisor = {
  pid: 10,
  ppid: 1,
  command: 'python3',
  args: 'python3 index.py docs/',
} as ProcessSample;

const end = (at: number, how: Partial<ProcessEnd> = {}): ProcessEnd => ({
  pid: 100 + at,
  ppid: 10,
  command: 'python3',
  args: 'python3 worker.py docs/',
  endedMs: at * 1000,
  lastSeenMs: at * 1000 - 500,
  seen: 'gone',
  exitCode: null,
  signal: null,
  ...how,
});

const snapshotWith = (fresh: readonly ProcessEnd[], filesGrew = 512): TreeSnapshot => ({
  source: 'proc',
  processes: [supervisor],
  waits: {
    relations: [],
    progress: [{ pid: 10, cpuMs: 0, rchar: 0, wchar: 512, readBytes: 0, writeBytes: 0, filesGrew }],
    intervalMs: 10_000,
    netSegments: null,
    ended: [...fresh],
  },
});

const segv = (at: number): ProcessEnd => end(at, { seen: 'zombie', signal: 'SIGSEGV' });

describe('restartLoop', () => {
  it('counts ends reaped before a look where every status seen of that command line was a failure', () => {
    const ended = [end(1), end(2), segv(3), end(4), end(5)];
    const found = restartLoop(snapshotWith(ended.slice(3)), ended);
    expect(found?.supervisor.pid).toBe(10);
    expect(found?.sentence).toBe(
      'python3 index.py (pid 10) restarts python3 worker.py: it ended 5 times in 4.0s (the 1 whose status was seen: died by SIGSEGV); nothing but a log grew: a restart loop, not progress',
    );
  });

  it('says how each ended when every status was seen', () => {
    const ended = [segv(1), segv(2), segv(3), segv(4)];
    expect(restartLoop(snapshotWith(ended.slice(3)), ended)?.sentence).toMatch(
      /restarts python3 worker\.py: it died by SIGSEGV 4 times in 3\.0s;/,
    );
  });

  it('is no loop for children never seen failing, for one seen exiting 0, when none ended since the last tick, or when files grew', () => {
    const gone = [end(1), end(2), end(3), end(4)];
    expect(restartLoop(snapshotWith(gone.slice(3)), gone)).toBeNull();
    const oneOk = [...gone, end(5, { seen: 'zombie', exitCode: 0 }), segv(6)];
    expect(restartLoop(snapshotWith(oneOk.slice(5)), oneOk)).toBeNull();
    const crashed = [segv(1), segv(2), segv(3)];
    expect(restartLoop(snapshotWith([]), crashed)).toBeNull();
    expect(restartLoop(snapshotWith(crashed.slice(2), 1024 * 1024), crashed)).toBeNull();
    expect(restartLoop(snapshotWith(crashed.slice(2)), crashed)).not.toBeNull();
  });
});
