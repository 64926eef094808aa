import { afterEach, describe, expect, it } from 'vitest';
import { sampleTree } from '../../src/monitor/index.js';
import { killAllTrees } from './spawn-tree.js';
import { waitForText, watch } from './watch.js';

afterEach(killAllTrees);

describe.skipIf(process.platform !== 'linux')('sampleTree', () => {
  it('reads every field of a real tree from /proc', async () => {
    const { tree } = watch('bash sleep-forever.sh');
    await waitForText(tree, 'warm up');
    const sample = sampleTree([tree.pid, ...tree.pids()]);
    const bash = sample.snapshot.processes.find((p) => p.pid === tree.pid);
    const sleep = sample.snapshot.processes.find((p) => p.command === 'sleep');
    expect(sample.snapshot.source).toBe('proc');
    expect(bash).toMatchObject({ command: 'bash', args: 'bash sleep-forever.sh', pgid: tree.pid, sid: tree.pid, threads: 1 });
    expect(bash?.wchan).toMatch(/wait/);
    expect(bash?.children).toEqual([sleep?.pid]);
    expect(sleep).toMatchObject({ ppid: tree.pid, state: 'S', args: 'sleep 1000', stdinIsHarnessPipe: true, threadWchans: [] });
    expect(sleep?.wchan).toMatch(/nanosleep/);
    expect(sleep?.rssKb).toBeGreaterThan(0);
    expect(sleep?.fds.total).toBeGreaterThanOrEqual(3);
    expect(sleep?.syscall).not.toBeNull();
    expect(bash?.readBytes).toBeGreaterThan(0);
  });

  it('skips pids that do not exist or vanished, without failing', async () => {
    const { tree } = watch('bash sleep-forever.sh');
    await waitForText(tree, 'warm up');
    const [sleepPid] = tree.pids().filter((pid) => pid !== tree.pid);
    await tree.kill('harness', 'vanish');
    const sample = sampleTree([process.pid, 2 ** 22 + 1, tree.pid, sleepPid ?? -1]);
    const [self, ...rest] = sample.snapshot.processes;
    expect(self?.pid).toBe(process.pid);
    // the killed sleep may linger as a zombie until PID 1 reaps it (slowly, here): sampled as Z, never an error
    expect(rest.every((p) => p.pid === sleepPid && p.state === 'Z')).toBe(true);
  });

  it('measures CPU over the interval from the previous sample', async () => {
    const { tree } = watch('python3 busy-loop.py');
    await waitForText(tree, 'fixed point');
    const first = sampleTree([tree.pid]);
    // spin the harness a little so the interval is measurable; only the sign of the result is checked
    const until = performance.now() + 100;
    while (performance.now() < until);
    const second = sampleTree([tree.pid], first);
    expect(second.snapshot.processes[0]?.cpuPercent).toBeGreaterThan(0);
    expect(second.stdinTarget).toBe(first.stdinTarget);
  });
});
