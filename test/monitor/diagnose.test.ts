import { describe, expect, it } from 'vitest';
import { classify, type ClassifyInput } from '../../src/monitor/index.js';
import type { ProcessSample, ProgressDelta, Waits, WaitRelation } from '../../src/types/process.js';

/** The classifier's use of snapshot.waits, on snapshots written as data; the real relations are in waits-real. */
const proc = (pid: number, overrides: Partial<ProcessSample> = {}): ProcessSample => ({
  pid,
  ppid: 1,
  pgid: 100,
  sid: 100,
  command: 'python3',
  args: '/usr/bin/python3 app.py',
  state: 'S',
  wchan: 'do_epoll_wait',
  threadWchans: [],
  threads: 1,
  cpuPercent: 0,
  rssKb: 9000,
  readBytes: 0,
  writeBytes: 0,
  syscall: null,
  fds: { pipes: 0, sockets: 0, total: 5 },
  stdinIsHarnessPipe: false,
  children: [],
  ...overrides,
});

const delta = (pid: number, overrides: Partial<ProgressDelta>): ProgressDelta => ({
  pid,
  cpuMs: 0,
  rchar: 0,
  wchar: 0,
  readBytes: 0,
  writeBytes: 0,
  filesGrew: 0,
  ...overrides,
});

const input = (
  processes: ProcessSample[],
  waits: Partial<Waits>,
  overrides: Partial<ClassifyInput> = {},
): ClassifyInput => ({
  snapshot: {
    source: 'proc',
    processes,
    waits: { relations: [], progress: [], intervalMs: 10_000, netSegments: null, ...waits },
  },
  rootPid: 100,
  newBytes: 0,
  intervalMs: 10_000,
  sinceOutputMs: 10_000,
  partialLine: false,
  lastLine: '',
  foldedLines: 0,
  windowLines: 0,
  ...overrides,
});

describe('classify with wait-for relations and progress', () => {
  it('calls a silent command progressing when files it has open grow, or data moves in its own network', () => {
    const client = proc(100, { args: '/usr/bin/python3 fetch.py -o model.bin', wchan: 'poll_schedule_timeout' });
    const growing = classify(input([client], { progress: [delta(100, { filesGrew: 600_000 })] }));
    expect(growing).toMatchObject({
      classification: 'progressing',
      reason: 'no output for 10.0s, but files it has open grew by 585.9 KiB in 10.0s (python3 fetch.py (pid 100))',
    });
    expect(classify(input([client], { netSegments: 12 })).classification).toBe('progressing');
    expect(classify(input([client], { netSegments: 0 })).classification).not.toBe('progressing');
  });

  it('says the busy twins cannot be told apart, and counts a starved runnable process as busy', () => {
    const spinner = proc(100, {
      command: 'node',
      args: 'node optimize.js',
      state: 'R',
      cpuPercent: 12,
      demandPercent: 90,
    });
    const verdict = classify(input([spinner], {}));
    expect(verdict.classification).toBe('busy-no-output');
    expect(verdict.pid).toBe(100);
    expect(verdict.reason).toContain('running or queued for a core 90% of the time: the machine is loaded');
    expect(verdict.reason).toContain('a long run and an endless loop look alike from outside');
    expect(classify(input([{ ...spinner, demandPercent: 10 }], {})).classification).not.toBe('busy-no-output');
  });

  it('names the process writing a flood', () => {
    const shell = proc(100, { command: 'bash', args: 'bash release.sh', wchan: 'do_wait', children: [101] });
    const perl = proc(101, { ppid: 100, command: 'perl', args: 'perl tools/relnotes.pl', state: 'R', cpuPercent: 95 });
    const verdict = classify(input([shell, perl], { progress: [delta(101, { wchar: 80e6 })] }, { newBytes: 80e6 }));
    expect(verdict).toMatchObject({ classification: 'output-flood', pid: 101 });
    expect(verdict.reason).toContain('written by perl relnotes.pl (pid 101)');
  });

  it('blames the holder a relation names, and leaves a healthy tick alone', () => {
    const waiter = proc(101, { command: 'flock', args: 'flock 9', wchan: 'locks_lock_inode_wait' });
    const holder = proc(102, { command: 'bash', args: 'bash tools/daemon.sh', state: 'T', wchan: 'do_signal_stop' });
    const lock: WaitRelation = {
      kind: 'lock',
      pid: 101,
      lock: 'flock',
      file: '00:2d:6',
      path: '/tmp/build.lock',
      holderPid: 99,
      holder: { pid: 102, command: 'bash', state: 'T', orphan: false, doing: 'stopped' },
    };
    const verdict = classify(input([waiter, holder], { relations: [lock] }));
    expect(verdict.pid).toBe(102);
    expect(verdict.reason).toMatch(
      /^flock \(pid 101\) waits for the flock lock on \/tmp\/build\.lock, held by bash daemon\.sh \(pid 102, stopped\)/,
    );
    expect(classify(input([waiter, holder], { relations: [lock] }, { newBytes: 200 })).classification).toBe(
      'progressing',
    );
  });
});
