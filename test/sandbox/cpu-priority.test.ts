import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getPriority, setPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { applyHarnessNice, harnessNice, niceIncrement } from '../../src/sandbox/harness-priority.js';
import { cpuPriorityOverride } from '../../src/sandbox/launcher.js';
import { sandboxPerTest, run } from './helpers.js';

const makeSandbox = sandboxPerTest();

/** The scheduling policy (field 41 of /proc/PID/stat: 0 other, 3 batch, 5 idle) and nice (field 19) as printed. */
const SHOW =
  'f=($(cut -d")" -f2 /proc/$$/stat)); echo "policy ${f[38]} nice ${f[16]} nicelimit $(ulimit -S -e)/$(ulimit -H -e)"';

describe('the fixtures yield the CPU to the harness', () => {
  it('idle: a command runs under SCHED_IDLE at nice 10, and neither it nor a child can leave it or lower its nice', async () => {
    const sandbox = await makeSandbox('sched-idle', { limits: { cpuPriority: 'idle' } });
    const { proc, out } = run(
      sandbox,
      `${SHOW}; bash -c '${SHOW.replace(/'/g, "'\\''")}'; chrt --other -p 0 $$ 2>/dev/null && echo left idle || echo stayed idle; renice -n 0 -p $$ >/dev/null 2>&1 && echo reniced || echo not reniced; ulimit -e 5 2>/dev/null && echo raised || echo not raised; ${SHOW}`,
    );
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(out.text.split('\n')).toEqual([
      'policy 5 nice 10 nicelimit 0/0',
      'policy 5 nice 10 nicelimit 0/0',
      'stayed idle',
      'not reniced',
      'not raised',
      'policy 5 nice 10 nicelimit 0/0',
      '',
    ]);
  });

  it('batch: SCHED_BATCH at nice 10; nice (the default) leaves the policy alone', async () => {
    const batch = await makeSandbox('sched-batch', { limits: { cpuPriority: 'batch' } });
    const first = run(batch, SHOW);
    await expect(first.proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(first.out.text).toBe('policy 3 nice 10 nicelimit 0/0\n');
    const nice = await makeSandbox('sched-nice', { limits: { cpuPriority: 'nice' } });
    const second = run(nice, SHOW);
    await expect(second.proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(second.out.text).toBe('policy 0 nice 10 nicelimit 0/0\n');
  });

  it('group-idle and group-low set the attempt cpu cgroup, where there is one', async (ctx) => {
    const idle = await makeSandbox('group-idle', { limits: { cpuPriority: 'group-idle' } });
    const root = idle.capabilities.cpuCgroupRoot;
    if (root === null || idle.capabilities.cgroupLimits.cpu !== 'v1') {
      ctx.skip(`no cgroup v1 cpu hierarchy here (cpu limits: ${idle.capabilities.cgroupLimits.cpu ?? 'none'})`);
      return;
    }
    // the attempt's cgroup is its id, made safe, and a random suffix
    const dirOf = (attemptId: string): string | undefined => {
      const name = readdirSync(root).find((entry) =>
        entry.startsWith(`${attemptId.replace(/[^A-Za-z0-9._-]+/g, '_')}-`),
      );
      return name === undefined ? undefined : join(root, name);
    };
    const idleDir = dirOf(idle.attemptId)!;
    if (existsSync(join(idleDir, 'cpu.idle'))) expect(readFileSync(join(idleDir, 'cpu.idle'), 'utf8').trim()).toBe('1');
    const low = await makeSandbox('group-low', { limits: { cpuPriority: 'group-low' } });
    expect(readFileSync(join(dirOf(low.attemptId)!, 'cpu.shares'), 'utf8').trim()).toBe('2');
  });

  it('HANGBENCH_CPU_PRIORITY chooses the lever; anything else is refused with the list', () => {
    expect(cpuPriorityOverride({})).toEqual({});
    expect(cpuPriorityOverride({ HANGBENCH_CPU_PRIORITY: 'idle' })).toEqual({ cpuPriority: 'idle' });
    expect(() => cpuPriorityOverride({ HANGBENCH_CPU_PRIORITY: 'rt' })).toThrow(/not one of nice, batch, idle/);
  });
});

describe('HANGBENCH_HARNESS_NICE: the harness above other work, its programs where they were', () => {
  // As root the harness may lower its nice value; as a normal user (test:nonroot) the same request is refused.
  it('root: the harness moves to the nice asked for and a sandboxed command still runs at nice 10; non-root: one line, no move', async () => {
    const before = getPriority();
    if (process.getuid?.() !== 0) {
      expect(applyHarnessNice({ HANGBENCH_HARNESS_NICE: String(before - 1) })).toMatch(
        new RegExp(
          `refused \\(\\w+: lowering a nice value needs root or CAP_SYS_NICE\\); the harness stays at nice ${before}`,
        ),
      );
      expect(getPriority()).toBe(before);
      return;
    }
    try {
      expect(applyHarnessNice({ HANGBENCH_HARNESS_NICE: '-4' })).toBeNull();
      expect(harnessNice()).toBe(-4);
      const sandbox = await makeSandbox('harness-nice', { limits: { cpuPriority: 'nice' } });
      const { proc, out } = run(sandbox, SHOW);
      await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
      expect(out.text).toBe('policy 0 nice 10 nicelimit 0/0\n');
    } finally {
      setPriority(before);
    }
  });

  it('the increment is relative for a harness at or above nice 0, absolute for one that raised itself; bad values refused', () => {
    expect(niceIncrement(10, 0)).toBe(10);
    expect(niceIncrement(10, 5)).toBe(10);
    expect(niceIncrement(10, -5)).toBe(15);
    expect(niceIncrement(0, -5)).toBe(5);
    expect(applyHarnessNice({})).toBeNull();
    expect(() => applyHarnessNice({ HANGBENCH_HARNESS_NICE: '-25' })).toThrow(/not an integer from -20 to 19/);
    expect(() => applyHarnessNice({ HANGBENCH_HARNESS_NICE: 'high' })).toThrow(/not an integer from -20 to 19/);
  });
});
