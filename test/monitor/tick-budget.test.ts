import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/agents/tokens.js';
import { loadPromptSet } from '../../src/agents/openai/prompt-set.js';
import { renderTick } from '../../src/monitor/index.js';
import { shortenPaths } from '../../src/monitor/ticks/tick-budget.js';
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
  stdinIsHarnessPipe: false,
  children: [],
  ...overrides,
});

const output = Array.from({ length: 40 }, (_, i) => `[build] module_${i}.c ok`).join('\n') + '\n';
const workers = Array.from({ length: 8 }, (_, i) =>
  sample(20 + i, { ppid: 10, command: 'cc1', wchan: 'hrtimer_nanosleep', args: `cc1 -quiet src/module_${i}.c -O2` }),
);
const tick: Tick = {
  commandId: 1,
  seq: 4,
  elapsedMs: 40_000,
  sinceOutputMs: 12_000,
  totalOutputBytes: 9000,
  output: { text: output, bytes: output.length, cutBytes: 0, foldedLines: 0, partialLine: false },
  snapshot: {
    source: 'proc',
    processes: [
      sample(10, { wchan: 'do_wait', children: [11, ...workers.map((w) => w.pid)], args: 'bash build.sh' }),
      sample(11, { ppid: 10, command: 'python3', wchan: 'anon_pipe_write', args: 'python3 build.py' }),
      ...workers,
      sample(40, { ppid: 1, command: 'sleep', wchan: 'hrtimer_nanosleep', args: 'sleep 600' }),
    ],
    waits: {
      relations: [
        {
          kind: 'pipe',
          pid: 11,
          direction: 'write',
          inode: 7,
          fifo: null,
          others: [{ pid: 10, command: 'bash', state: 'S', orphan: false, doing: 'child-wait' }],
          selfHeld: false,
        },
      ],
      progress: [],
      intervalMs: 10_000,
      netSegments: null,
    },
  },
  classification: 'blocked-on-pipe',
  reason: 'python3 build.py (pid 11) is blocked writing to a full pipe; its only reader is bash build.sh (pid 10)',
  culprit: 11,
};

describe('a tick within a token budget', () => {
  const diagnostic = loadPromptSet('diagnostic', process.cwd());
  const minimal = loadPromptSet('minimal', process.cwd());

  it('the diagnostic prompt renders within its budget: reason and culprit chain first, then the output tail, with the cut said in one line', () => {
    expect(diagnostic.tickTokens).toBe(150);
    const whole = renderTick(tick, diagnostic.tick);
    expect(countTokens(whole)).toBeGreaterThan(200);
    const text = renderTick(tick, diagnostic.tick, { tokens: 200, count: countTokens });
    expect(countTokens(text), text).toBeLessThanOrEqual(200);
    // the floor: the reason and the culprit's chain are never cut
    const floor = renderTick(tick, diagnostic.tick, { tokens: 1, count: countTokens });
    expect(floor).toContain(tick.reason);
    expect(floor).toMatch(/\n\s*11 python3 S anon_pipe_write/);
    expect(countTokens(renderTick(tick, diagnostic.tick, { tokens: 150, count: countTokens }))).toBeLessThanOrEqual(
      150,
    );
    expect(text).toContain(tick.reason);
    expect(text).toMatch(/\n\s*11 python3 S anon_pipe_write/);
    expect(text).toMatch(/\n10 bash S do_wait/);
    // the output kept is its end
    expect(text).toContain('module_39.c');
    expect(text).not.toContain('module_0.c ok');
    expect(text).toMatch(/\(cut: \d+\/40 output lines(, \d+\/11 processes)?(, rss, threads)?\)/);
  });

  it('renders a tick that fits whole as it is, and the minimal prompt has no budget', () => {
    const small = {
      ...tick,
      output: { ...tick.output, text: 'one line\n', bytes: 9 },
      snapshot: { ...tick.snapshot, processes: tick.snapshot.processes.slice(0, 2) },
      reason: 'python3 (pid 11) is blocked writing',
    };
    expect(renderTick(small, diagnostic.tick, { tokens: 150, count: countTokens })).toBe(
      renderTick(small, diagnostic.tick),
    );
    expect(minimal.tickTokens).toBeNull();
  });

  it("writes the attempt's folders as the command sees them: ./ (its cwd), ~ and $TMPDIR", () => {
    const root = '/tmp/hangbench-run-1.case_baseline-k2_inte-b0Po7P';
    expect(shortenPaths(`flock lock on ${root}/workspace/.pkg/lock, ${root}/tmp/x.lock and ${root}/home/.cfg`)).toBe(
      'flock lock on ./.pkg/lock, $TMPDIR/x.lock and ~/.cfg',
    );
    expect(shortenPaths(`cd ${root}/workspace && ls ${root}/workspaces/a /etc/hangbench-x`)).toBe(
      `cd . && ls ${root}/workspaces/a /etc/hangbench-x`,
    );
  });

  it('past the budget, the reason and the culprit line stay; the others go compact, then the chain goes to the culprit', () => {
    const threaded = {
      ...tick,
      snapshot: {
        ...tick.snapshot,
        processes: tick.snapshot.processes.map((process) =>
          process.pid === 11
            ? {
                ...process,
                threads: 3,
                threadWchans: ['anon_pipe_write', 'futex_do_wait', 'poll_schedule_timeout.constprop.0'],
              }
            : process,
        ),
      },
    };
    const roomy = renderTick(threaded, diagnostic.tick, { tokens: 170, count: countTokens });
    expect(roomy).toContain(tick.reason);
    expect(roomy).toMatch(/\n\s*11 python3 S anon_pipe_write cpu 0% rss 3MB threads 3: /);
    const tight = renderTick(threaded, diagnostic.tick, { tokens: 60, count: countTokens });
    expect(tight).toContain(tick.reason);
    // the culprit's line, compact, is always there; bash (pid 10, the other end of the pipe) is cut
    expect(tight).toMatch(/\n\s*11 python3 S anon_pipe_write threads 3 · python3 build.py/);
    expect(tight).not.toMatch(/\n\s*10 bash/);
    expect(tight).toMatch(/\(cut: 40\/40 output lines, 10\/11 processes, rss, threads\)$/);
  });

  it('a pending prompt the reason already quotes is not repeated', () => {
    const prompt = {
      ...tick,
      output: { text: 'Ok to proceed? (y) ', bytes: 0, cutBytes: 0, foldedLines: 0, partialLine: true },
      reason: 'node (pid 11) idles with stdin open, output ends at the prompt "Ok to proceed? (y) "',
    };
    const text = renderTick(prompt, diagnostic.tick, { tokens: 60, count: countTokens });
    expect(text).toContain('no new output; the last line is still the prompt the reason quotes');
    expect(text.match(/Ok to proceed/g)).toHaveLength(1);
  });
});
