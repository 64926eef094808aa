import { describe, expect, it } from 'vitest';
import { renderTick } from '../../src/monitor/index.js';
import type { ProcessSample, Tick } from '../../src/types/process.js';

const sample = (pid: number, overrides: Partial<ProcessSample>): ProcessSample => ({
  pid,
  ppid: 1,
  pgid: 10,
  sid: 10,
  command: 'bash',
  args: '',
  state: 'S',
  wchan: '',
  threadWchans: [],
  threads: 1,
  cpuPercent: 0,
  rssKb: 3000,
  readBytes: 0,
  writeBytes: 0,
  syscall: null,
  fds: { pipes: 0, sockets: 3, total: 4 },
  stdinIsHarnessPipe: true,
  children: [],
  ...overrides,
});

const tick: Tick = {
  commandId: 1,
  seq: 3,
  elapsedMs: 30_000,
  sinceOutputMs: 28_100,
  totalOutputBytes: 61,
  output: { text: 'Continue? [y/N] ', bytes: 0, cutBytes: 0, foldedLines: 0, partialLine: true },
  snapshot: {
    source: 'proc',
    processes: [
      sample(10, {
        wchan: 'do_wait',
        syscall: { nr: 61, arg0: 0xffffffff },
        children: [11],
        args: 'bash -c python3 migrate.py; echo',
      }),
      sample(11, {
        ppid: 10,
        command: 'python3',
        wchan: 'anon_pipe_read',
        syscall: { nr: 0, arg0: 0 },
        args: 'python3 migrate.py',
      }),
    ],
  },
  classification: 'blocked-on-stdin',
  reason: 'python3 (pid 11, S in anon_pipe_read) is reading stdin at the prompt "Continue? [y/N] "',
};

describe('renderTick', () => {
  it('renders a compact header, the pending prompt and the indented tree', () => {
    const lines = renderTick(tick).split('\n');
    expect(lines[0]).toBe(`[tick 3 · 30.0s · no output for 28.1s · 61 B total] blocked-on-stdin: ${tick.reason}`);
    expect(lines[1]).toBe('no new output; the last line is still unfinished: "Continue? [y/N] "');
    expect(lines[3]).toMatch(/^10 bash S do_wait wait4 cpu 0% rss 3MB · bash -c python3/);
    expect(lines[4]).toMatch(
      /^ {2}11 python3 S anon_pipe_read read\(fd 0\) cpu 0% rss 3MB stdin=agent · python3 migrate.py$/,
    );
  });

  it('quotes new output line by line with what was cut or folded', () => {
    const flood = {
      ...tick,
      output: {
        text: 'y\n… (line repeated 9 more times)\n',
        bytes: 5000,
        cutBytes: 4000,
        foldedLines: 9,
        partialLine: false,
      },
    };
    const text = renderTick(flood);
    expect(text).toContain(
      'new output (4.9 KiB, 3.9 KiB cut, 9 repeated lines folded):\n| y\n| … (line repeated 9 more times)\n',
    );
  });
});
