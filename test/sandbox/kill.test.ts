import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { probeHost, type Sandbox } from '../../src/sandbox/index.js';
import { makeSandbox, markedProcesses, procState, run } from './helpers.js';

// The last step of a kill is the host's: cgroup.kill where the probe found a writable cgroup v2, else SIGKILL to
// every process of the tree (host-shapes.test.ts forces the other shapes; .ci/run runs this file under both).
const caps = await probeHost();
const LAST_STEP = caps.mechanism === 'cgroup-v2' ? 'cgroup.kill' : 'SIGKILL';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

describe('killing a command tree', () => {
  it('leaves nothing of a tree with a setsid grandchild, a SIGTERM-ignoring child and a stopped child', async () => {
    sandbox = await makeSandbox('tree');
    const { proc, out } = run(sandbox, 'bash tree.sh');
    const pids = await Promise.all(['root', 'setsid', 'stubborn', 'stopped'].map((role) => out.pid(role)));
    await vi.waitFor(() => expect(procState(pids[3]!)).toBe('T'));
    expect(new Set(proc.pids())).toEqual(new Set(pids));

    const record = await proc.kill('agent', 'test', 'SIGINT');

    expect(markedProcesses(sandbox.attemptId)).toEqual([]);
    for (const pid of pids) expect(procState(pid) ?? 'Z').toBe('Z');
    expect(proc.pids()).toEqual([]);
    expect(record).toMatchObject({
      by: 'agent',
      reason: 'test',
      mechanism: caps.mechanism,
      treeSize: 4,
      escalatedToKill: true,
      survivors: [],
    });
    expect(record.steps.map((step) => step.signal)).toEqual(['SIGINT', 'SIGTERM', 'SIGCONT', LAST_STEP]);
    expect(record.steps[3]!.alive).toBe(1);
    expect(record.goneMs).toBeGreaterThanOrEqual(record.steps[3]!.atMs);
    console.info(`tree kill: goneMs=${record.goneMs} steps=${JSON.stringify(record.steps)}`);
    await expect(proc.exited).resolves.toMatchObject({ signal: 'SIGINT' });
    expect(proc.done).toBe(true);
  });

  it('goes straight to SIGKILL when asked, and a second kill of a finished command is empty', async () => {
    sandbox = await makeSandbox('sigkill');
    const { proc, out } = run(sandbox, 'bash tree.sh');
    await Promise.all(['root', 'setsid', 'stubborn', 'stopped'].map((role) => out.pid(role)));
    const record = await proc.kill('budget', 'wall budget', 'SIGKILL');
    expect(record.steps.map((step) => step.signal)).toEqual([LAST_STEP]);
    expect(record).toMatchObject({ escalatedToKill: true, treeSize: 4, survivors: [] });
    expect(markedProcesses(sandbox.attemptId)).toEqual([]);
    await proc.exited;
    const again = await proc.kill('agent', 'again');
    expect(again).toMatchObject({ treeSize: 0, steps: [], escalatedToKill: false, goneMs: 0 });
  });

  it('kills a command caught before its launcher joined the cgroup', async () => {
    sandbox = await makeSandbox('early');
    const { proc } = run(sandbox, 'sleep 1000 & sleep 1000');
    const record = await proc.kill('harness', 'shutdown');
    expect(record).toMatchObject({ survivors: [] });
    expect(record.steps.length).toBeGreaterThan(0);
    // The cgroup counts the launcher at once; a /proc scan may find only a jail's nsenter, which is plumbing, not counted.
    if (caps.mechanism === 'cgroup-v2') expect(record.treeSize).toBeGreaterThanOrEqual(1);
    await proc.exited;
    expect(markedProcesses(sandbox.attemptId)).toEqual([]);
  });

  it('keeps `exited` pending while a grandchild holds stdout, until that grandchild is killed', async () => {
    sandbox = await makeSandbox('holder');
    const { proc, out } = run(sandbox, 'bash holder.sh');
    let settled = false;
    void proc.exited.then(() => (settled = true));
    const holder = await out.pid('holder');
    await out.line(/root \d+ exiting/);
    // Gone from /proc: the harness reaped the root and saw its exit; a promise tied to that exit would now be settled.
    await vi.waitFor(() => expect(procState(proc.pid)).toBeNull());
    // An absence cannot be awaited: give a wrongly resolved `exited` a few turns of the event loop to show itself.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    expect(proc.done).toBe(false);
    expect(proc.pids()).toEqual([holder]);

    const record = await proc.kill('agent', 'orphan holds the pipe');
    expect(record).toMatchObject({ treeSize: 1, escalatedToKill: false, survivors: [] });
    expect(record.steps.map((step) => step.signal)).toEqual(['SIGINT', 'SIGTERM', 'SIGCONT']);
    await expect(proc.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(settled).toBe(true);
    expect(procState(holder) ?? 'Z').toBe('Z');
  });

  it('falls back to the process group and a /proc marker scan (host-user, no cgroup), which finds a setsid grandchild', async () => {
    sandbox = await makeSandbox('fallback', {
      capabilities: (caps) => ({ ...caps, mechanism: 'process-group+scan', cgroupRoot: null, isolation: 'host-user' }),
    });
    const { proc, out } = run(
      sandbox,
      `setsid bash -c 'trap "" INT TERM; echo "escaped $$"; exec sleep 1000' & echo "root $$"; wait`,
    );
    const [root, escaped] = await Promise.all([out.pid('root'), out.pid('escaped')]);
    // Killed mid-exec, the escaped bash would be invisible to the scan for that moment (its environ is in flux) and
    // the kill could end before SIGKILL; this test is about a TERM-ignoring process, so it waits for `sleep`.
    await expect.poll(() => commOf(escaped)).toBe('sleep');
    await expect.poll(() => new Set(proc.pids())).toEqual(new Set([root, escaped]));

    const record = await proc.kill('agent', 'fallback');
    expect(record).toMatchObject({
      mechanism: 'process-group+scan',
      treeSize: 2,
      escalatedToKill: true,
      survivors: [],
    });
    expect(record.steps.map((step) => step.signal)).toEqual(['SIGINT', 'SIGTERM', 'SIGCONT', 'SIGKILL']);
    expect(record.steps[3]!.alive).toBe(1);
    expect(markedProcesses(sandbox.attemptId)).toEqual([]);
    await proc.exited;
  });
});

function commOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}
