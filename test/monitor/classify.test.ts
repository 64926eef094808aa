import { describe, expect, it } from 'vitest';
import { classify, type ClassifyInput } from '../../src/monitor/index.js';
import type { ProcessSample } from '../../src/types/process.js';

/** Snapshots written as data for the shapes a fixture cannot cheaply produce; the real ones are in classify-real. */
const proc = (pid: number, overrides: Partial<ProcessSample> = {}): ProcessSample => ({
  pid,
  ppid: 1,
  pgid: 100,
  sid: 100,
  command: 'python3',
  args: 'python3 app.py',
  state: 'S',
  wchan: 'do_epoll_wait',
  threadWchans: [],
  threads: 1,
  cpuPercent: 0,
  rssKb: 9000,
  readBytes: 0,
  writeBytes: 0,
  syscall: null,
  fds: { pipes: 0, sockets: 3, total: 5 },
  stdinIsHarnessPipe: true,
  children: [],
  ...overrides,
});

const input = (processes: ProcessSample[], overrides: Partial<ClassifyInput> = {}): ClassifyInput => ({
  snapshot: { source: 'proc', processes },
  rootPid: 100,
  newBytes: 0,
  intervalMs: 1000,
  sinceOutputMs: 5000,
  partialLine: false,
  lastLine: '',
  foldedLines: 0,
  windowLines: 0,
  ...overrides,
});

describe('classify', () => {
  it('off Linux, classifies from output alone', () => {
    const unavailable = { snapshot: { source: 'unavailable' as const, processes: [] } };
    expect(classify(input([], { ...unavailable, newBytes: 10 })).classification).toBe('progressing');
    expect(classify(input([], unavailable))).toMatchObject({
      classification: 'sleeping',
      reason: expect.stringContaining('no /proc'),
    });
    const prompt = { partialLine: true, lastLine: 'Continue? [y/N] ' };
    expect(classify(input([], { ...unavailable, ...prompt })).classification).toBe('blocked-on-stdin');
  });

  it('calls a flood by byte rate, and by repetition at a lower rate', () => {
    expect(classify(input([proc(100)], { newBytes: 5e6 })).classification).toBe('output-flood');
    const repeated = { newBytes: 100_000, foldedLines: 900, windowLines: 1000 };
    expect(classify(input([proc(100)], repeated)).classification).toBe('output-flood');
    expect(classify(input([proc(100)], { ...repeated, foldedLines: 10 })).classification).toBe('progressing');
  });

  it('lets a thread that prints beat a main thread that reads stdin', () => {
    const reader = proc(100, {
      wchan: 'anon_pipe_read',
      syscall: { nr: 0, arg0: 0 },
      threads: 2,
      threadWchans: ['hrtimer_nanosleep'],
    });
    expect(classify(input([reader], { newBytes: 40, sinceOutputMs: 10 })).classification).toBe('progressing');
    expect(classify(input([reader], { newBytes: 40, partialLine: true, lastLine: 'name: ' })).classification).toBe(
      'blocked-on-stdin',
    );
  });

  it('reads a prompt from an idle event loop only once the output went quiet, and only for prompt-like lines', () => {
    const loop = [proc(100)];
    const prompt = { partialLine: true, lastLine: '? Project name: › ' };
    expect(classify(input(loop, { ...prompt, newBytes: 20, sinceOutputMs: 50 })).classification).toBe('progressing');
    expect(classify(input(loop, { ...prompt, newBytes: 20, sinceOutputMs: 900 })).classification).toBe(
      'blocked-on-stdin',
    );
    expect(classify(input(loop, { partialLine: true, lastLine: 'downloading [####    ] 64%' })).classification).toBe(
      'sleeping',
    );
    expect(classify(input(loop, { partialLine: true, lastLine: 'tests/test_api.py ......' })).classification).toBe(
      'sleeping',
    );
  });

  it('sees a pipe writer in any thread (multiprocessing feeder) and busy beats futex (livelock)', () => {
    const parent = proc(100, { wchan: 'do_wait', children: [101] });
    const worker = proc(101, { ppid: 100, wchan: 'futex_do_wait', threads: 2, threadWchans: ['anon_pipe_write'] });
    expect(classify(input([parent, worker])).classification).toBe('blocked-on-pipe');
    const livelock = proc(100, { wchan: 'futex_do_wait', threads: 3, threadWchans: ['', ''], cpuPercent: 99 });
    expect(classify(input([livelock])).classification).toBe('busy-no-output');
  });

  it('calls a tree whose root is gone a zombie, and an empty tree exited', () => {
    const orphan = proc(101, { ppid: 1, command: 'sleep', wchan: 'hrtimer_nanosleep' });
    expect(classify(input([orphan]))).toMatchObject({ classification: 'zombie', pid: 101 });
    expect(
      classify(input([proc(100, { state: 'Z', wchan: '', children: [101] }), { ...orphan, ppid: 100 }])).classification,
    ).toBe('zombie');
    expect(classify(input([])).classification).toBe('exited');
  });

  it('calls a root-gone tree exited when what is left holds no pipe, socket or terminal (a daemon that redirected)', () => {
    const daemon = { command: 'bash', wchan: 'do_wait', sid: 7, fds: { pipes: 0, sockets: 0, terminals: 0, total: 4 } };
    const left = [proc(101, daemon), proc(102, { ...daemon, command: 'sleep', wchan: 'hrtimer_nanosleep', ppid: 101 })];
    expect(classify(input(left))).toMatchObject({
      classification: 'exited',
      pid: null,
      reason: expect.stringMatching(
        /root exited; sleep \(pid 102.*and 1 more still run but hold no pipe, socket or terminal/,
      ),
    });
    // the same daemon on the terminal (pty mode, no redirect) does hold the output
    const onTty = { ...daemon, fds: { ...daemon.fds, terminals: 3 } };
    expect(classify(input([proc(101, onTty)])).classification).toBe('zombie');
    // a trace from before terminals were counted: it may hold the output
    expect(classify(input([proc(101, { ...daemon, fds: { pipes: 0, sockets: 0, total: 4 } })])).classification).toBe(
      'zombie',
    );
  });

  it('among idle leaves names a lock wait before a sleep, as for a flock waiting on a sleeping holder', () => {
    const bash = proc(100, { command: 'bash', wchan: 'do_wait', children: [101, 103] });
    const holder = proc(101, { ppid: 100, command: 'flock', wchan: 'do_wait', children: [102] });
    const sleep = proc(102, { ppid: 101, command: 'sleep', wchan: 'hrtimer_nanosleep' });
    const waiter = proc(103, { ppid: 100, command: 'flock', wchan: 'locks_lock_inode_wait' });
    expect(classify(input([bash, holder, sleep, waiter]))).toMatchObject({
      classification: 'waiting-on-child',
      pid: 103,
    });
  });

  it("a shell polling with sleep is the loop, also when the sample caught this second's sleep still starting (R)", () => {
    const bash = proc(100, { command: 'bash', args: 'bash scripts/e2e.sh', wchan: 'do_wait', children: [101] });
    const asleep = proc(101, { ppid: 100, command: 'sleep', args: 'sleep 1.000', wchan: 'hrtimer_nanosleep' });
    const starting = proc(101, { ppid: 100, command: 'sleep', args: 'sleep 1.000', state: 'R', wchan: '' });
    for (const sleep of [asleep, starting])
      expect(classify(input([bash, sleep], { sinceOutputMs: 19_000 }))).toMatchObject({
        classification: 'sleeping',
        pid: 100,
        reason: expect.stringContaining('polls in a loop'),
      });
  });

  it('names the deepest, most telling process: the leaf, not the waiting bash', () => {
    const bash = proc(100, { command: 'bash', wchan: 'do_wait', children: [101] });
    const python = proc(101, { ppid: 100, wchan: 'do_wait', children: [102] });
    const cat = proc(102, { ppid: 101, command: 'cat', wchan: 'anon_pipe_read', syscall: { nr: 0, arg0: 0 } });
    expect(classify(input([bash, python, cat]))).toMatchObject({ classification: 'blocked-on-stdin', pid: 102 });
  });
});
