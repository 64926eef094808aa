import { readFileSync } from 'node:fs';
import { afterEach, expect, it, vi } from 'vitest';
import { sampleTree } from '../../src/monitor/index.js';
import type { SandboxProcess } from '../../src/sandbox/index.js';
import { disposeWatched, waitForText, watch } from './watch.js';
import { describeOnLinux } from '../support/capability.js';

afterEach(disposeWatched);

/** The pid of the script's `sleep` once it sleeps (the readiness line comes just before bash forks it). */
async function sleepingChild(tree: SandboxProcess): Promise<number> {
  await waitForText(tree, 'warm up');
  let pid = -1;
  await vi.waitFor(() => {
    const sleep = sampleTree(tree.pids()).snapshot.processes.find((p) => p.command === 'sleep');
    expect(sleep?.wchan).toMatch(/nanosleep/);
    pid = sleep!.pid;
  });
  return pid;
}

describeOnLinux('sampleTree', () => {
  it('reads every field of a real tree from /proc', async () => {
    const { tree } = await watch('bash sleep-forever.sh');
    await sleepingChild(tree);
    const sample = sampleTree([tree.pid, ...tree.pids()]);
    const bash = sample.snapshot.processes.find((p) => p.pid === tree.pid);
    const sleep = sample.snapshot.processes.find((p) => p.command === 'sleep');
    expect(sample.snapshot.source).toBe('proc');
    expect(bash).toMatchObject({
      command: 'bash',
      args: 'bash sleep-forever.sh',
      pgid: tree.pid,
      sid: tree.pid,
      threads: 1,
    });
    expect(bash?.wchan).toMatch(/wait/);
    expect(bash?.children).toEqual([sleep?.pid]);
    expect(sleep).toMatchObject({
      ppid: tree.pid,
      state: 'S',
      args: 'sleep 1000',
      stdinIsHarnessPipe: true,
      threadWchans: [],
    });
    expect(sleep?.wchan).toMatch(/nanosleep/);
    expect(sleep?.rssKb).toBeGreaterThan(0);
    expect(sleep?.fds.total).toBeGreaterThanOrEqual(3);
    expect(sleep?.syscall).not.toBeNull();
    expect(bash?.readBytes).toBeGreaterThan(0);
  });

  it('skips pids that do not exist or vanished, without failing', async () => {
    const { tree } = await watch('bash sleep-forever.sh');
    const sleepPid = await sleepingChild(tree);
    await tree.kill('harness', 'vanish');
    const sample = sampleTree([process.pid, 2 ** 22 + 1, tree.pid, sleepPid]);
    const [self, ...rest] = sample.snapshot.processes;
    expect(self?.pid).toBe(process.pid);
    // The pid that never existed and the reaped bash are skipped. The killed sleep may linger as a zombie until its
    // reaper gets to it: then it is sampled as Z, never an error.
    expect(rest.map((p) => ({ pid: p.pid, state: p.state }))).toEqual(
      rest.length === 0 ? [] : [{ pid: sleepPid, state: 'Z' }],
    );
  });

  it('skips a process that ended while it was read, instead of showing it live with no descriptors', async () => {
    // Its exit closes a process's descriptors before it turns zombie: read in that window, a child looked like a live
    // process whose descriptors cannot be read, which the classifier must take as one that may hold the output.
    const { tree } = await watch('bash fork-churn.sh');
    await waitForText(tree, 'ready');
    let children = 0;
    const empty: string[] = [];
    let sample: ReturnType<typeof sampleTree> | null = null;
    for (const until = performance.now() + 3000; performance.now() < until;) {
      sample = sampleTree([tree.pid, ...tree.pids()], sample);
      for (const p of sample.snapshot.processes) {
        if (p.pid === tree.pid) continue;
        children++;
        if (p.state !== 'Z' && p.fds.total === 0) empty.push(`${p.command} (pid ${p.pid}, ${p.state})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(children).toBeGreaterThan(50);
    expect(empty).toEqual([]);
  });

  it('measures CPU over the interval from the previous sample', async () => {
    const { tree } = await watch('python3 busy-loop.py');
    await waitForText(tree, 'fixed point');
    const first = sampleTree([tree.pid]);
    // wait until the loop has been given CPU since the first sample (a loaded machine may keep it off a core for a
    // while), so the interval holds some; only the sign of the result is checked
    const cpuTicks = () => {
      const fields = readFileSync(`/proc/${tree.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    const before = cpuTicks();
    const until = performance.now() + 10_000;
    while (cpuTicks() < before + 2 && performance.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const second = sampleTree([tree.pid], first);
    expect(second.snapshot.processes[0]?.cpuPercent).toBeGreaterThan(0);
    expect(second.stdinTarget).toBe(first.stdinTarget);
  });
});
