import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { createMonitor, sampleTree } from '../../src/monitor/index.js';
import type { Monitor } from '../../src/monitor/index.js';
import { releaseSample } from '../../src/monitor/sample/sample-tree.js';
import { createSandbox, probeHost } from '../../src/sandbox/index.js';
import type { Sandbox, SandboxProcess } from '../../src/sandbox/index.js';
import type { ProcessSample, Tick, WaitRelation } from '../../src/types/process.js';
import { Output } from '../sandbox/helpers.js';
import { describeOnLinux, requireCapability } from '../support/capability.js';

/** Wait-for relations read from real processes in a real sandbox: each test's tick must name the culprit. */

const FIXTURES = fileURLToPath(new URL('../fixtures/waits', import.meta.url));
const POLL_MS = 100;
/** A relation shows once the process has reached its blocking call; this bounds the wait for it, not its speed. */
const MAX_POLLS = 100;

let sandbox: Sandbox | undefined;
let counter = 0;
afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

async function start(command: string): Promise<{ proc: SandboxProcess; monitor: Monitor; out: Output }> {
  sandbox = await createSandbox({
    attemptId: `test-monitor-waits-${process.pid}-${++counter}`,
    workspaceSource: FIXTURES,
    timeScale: 1,
    capabilities: await probeHost(),
  });
  const proc = sandbox.spawn(command, { commandId: 1 });
  const out = Output.of(sandbox, proc);
  const monitor = createMonitor({ process: proc, mode: { mode: 'poll' } });
  await out.line(/^ready/m);
  return { proc, monitor, out };
}

/** Statuses until one without new output satisfies `done` (each over a fresh interval), or the last one seen. */
async function statusUntil(monitor: Monitor, done: (tick: Tick) => boolean): Promise<Tick> {
  const settled = (tick: Tick): boolean => tick.output.bytes === 0 && done(tick);
  let tick = monitor.status();
  for (let poll = 0; poll < MAX_POLLS && !settled(tick); poll++) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    tick = monitor.status();
  }
  return tick;
}

function relations(tick: Tick, kind: WaitRelation['kind']): WaitRelation[] {
  return (tick.snapshot.waits?.relations ?? []).filter((relation) => relation.kind === kind);
}

function processOf(tick: Tick, pid: number | null | undefined): ProcessSample | undefined {
  return tick.snapshot.processes.find((process) => process.pid === pid);
}

async function stop(proc: SandboxProcess, monitor: Monitor): Promise<void> {
  if (!proc.done) await proc.kill('harness', 'test over');
  await proc.exited;
  monitor.stop();
}

describeOnLinux('wait-for relations on real processes', () => {
  it('names the orphaned grandchild that holds the write end of the pipe its grandparent reads', async () => {
    const { proc, monitor } = await start('python3 orphan-pipe.py');
    const tick = await statusUntil(monitor, (t) =>
      relations(t, 'pipe').some((r) => r.kind === 'pipe' && r.others.some((o) => o.orphan)),
    );
    const pipe = relations(tick, 'pipe')[0];
    expect(pipe).toMatchObject({ kind: 'pipe', direction: 'read', fifo: null });
    expect(pipe?.kind === 'pipe' && pipe.others.map((o) => [o.command, o.orphan])).toEqual([['sleep', true]]);
    expect(processOf(tick, pipe?.pid)?.args).toContain('orphan-pipe.py');
    expect(tick.classification).toBe('blocked-on-pipe');
    expect(processOf(tick, tick.culprit)?.command).toBe('sleep');
    expect(tick.reason).toMatch(
      /python3 orphan-pipe\.py \(pid \d+\) is blocked reading a pipe whose only writer is sleep \(pid \d+, orphaned, ppid 1\)/,
    );
    await stop(proc, monitor);
  });

  it('says a FIFO being opened for reading has no writer, and names the reader', async () => {
    const { proc, monitor, out } = await start('bash fifo-no-writer.sh');
    const fifo = (await out.line(/^ready (\S+)/m))[1];
    const tick = await statusUntil(monitor, (t) => relations(t, 'pipe').length > 0);
    expect(relations(tick, 'pipe')).toEqual([
      expect.objectContaining({ kind: 'pipe', inode: 0, fifo, direction: 'read', others: [] }),
    ]);
    expect(processOf(tick, tick.culprit)?.command).toBe('cat');
    expect(tick.reason).toContain(`cat (pid`);
    expect(tick.reason).toContain(`blocked opening FIFO ${fifo}: no process has it open for writing`);
    await stop(proc, monitor);
  });

  it('finds the stopped holder of a flock another process waits for, though the pid that took it is gone', async () => {
    const { proc, monitor } = await start('bash flock-stopped.sh');
    const tick = await statusUntil(
      monitor,
      (t) => relations(t, 'lock').length > 0 && processOf(t, t.culprit)?.state === 'T',
    );
    const [lock] = relations(tick, 'lock');
    expect(lock).toMatchObject({
      kind: 'lock',
      lock: 'flock',
      path: '/tmp/build.lock',
      holder: { command: 'bash', state: 'T', doing: 'stopped' },
    });
    expect(processOf(tick, lock?.pid)?.command).toBe('flock');
    expect(processOf(tick, tick.culprit)).toMatchObject({ command: 'bash', state: 'T' });
    expect(tick.reason).toMatch(
      /flock \(pid \d+\) waits for the flock lock on \/tmp\/build\.lock, held by bash flock-stopped\.sh \(pid \d+, stopped\): it will not release it until it is continued/,
    );
    await stop(proc, monitor);
  });

  it('calls two threads each waiting for the lock the other holds a lock-order deadlock', async () => {
    const { proc, monitor } = await start('python3 lock-order.py');
    const tick = await statusUntil(monitor, (t) => relations(t, 'futex').length > 0);
    expect(relations(tick, 'futex')).toEqual([expect.objectContaining({ kind: 'futex', waiting: 3, threads: 3 })]);
    expect(tick.classification).toBe('deadlock-futex');
    expect(processOf(tick, tick.culprit)?.args).toContain('lock-order.py');
    expect(tick.reason).toMatch(
      /python3 lock-order\.py \(pid \d+\): 3 of 3 threads wait on locks \(futex\).*lock-order deadlock/,
    );
    await stop(proc, monitor);
  });

  it('shows a connect to a port that never answers as SYN_SENT to that port', async () => {
    const { proc, monitor, out } = await start('python3 connect-nobody.py');
    const port = (await out.line(/^ready (\d+)/m))[1];
    const tick = await statusUntil(monitor, (t) =>
      relations(t, 'socket').some((r) => r.kind === 'socket' && r.state === 'SYN_SENT'),
    );
    expect(relations(tick, 'socket')).toContainEqual(
      expect.objectContaining({ kind: 'socket', proto: 'tcp', state: 'SYN_SENT', peer: `127.0.0.1:${port}` }),
    );
    expect(tick.reason).toMatch(
      new RegExp(
        `python3 connect-nobody\\.py \\(pid \\d+\\) is blocked connecting to 127\\.0\\.0\\.1:${port}: SYN sent, nobody answers`,
      ),
    );
    expect(processOf(tick, tick.culprit)?.args).toContain('connect-nobody.py');
    await stop(proc, monitor);
  });

  it('tells a download receiving a byte a second from one that receives nothing, where the command has its own network', async (ctx) => {
    const caps = await probeHost();
    requireCapability(
      ctx,
      'bubblewrap',
      caps.isolation === 'bubblewrap',
      "a network namespace per command: on the host the harness counts every program's traffic",
    );
    const slow = await start('python3 download.py 1');
    const moving = await statusUntil(
      slow.monitor,
      (t) => t.classification === 'progressing' && (t.snapshot.waits?.netSegments ?? 0) > 0,
    );
    expect(moving.classification).toBe('progressing');
    expect(moving.reason).toMatch(/no output for .*, but \d+ TCP data segments moved in its network/);
    const connection = relations(moving, 'socket');
    expect(connection).toContainEqual(expect.objectContaining({ kind: 'socket', state: 'ESTABLISHED' }));
    await stop(slow.proc, slow.monitor);
    await sandbox?.dispose();
    sandbox = undefined;

    const stalled = await start('python3 download.py 0');
    const waiting = await statusUntil(
      stalled.monitor,
      (t) =>
        relations(t, 'socket').some((r) => r.kind === 'socket' && r.state === 'ESTABLISHED' && r.peerPid !== null) &&
        t.sinceOutputMs > 500,
    );
    expect(waiting.classification).not.toBe('progressing');
    expect(waiting.snapshot.waits?.netSegments).toBe(0);
    expect(processOf(waiting, waiting.culprit)?.args).toContain('download.py');
    expect(waiting.reason).toMatch(
      /python3 download\.py \(pid \d+\) waits on an open connection 127\.0\.0\.1:\d+ → 127\.0\.0\.1:\d+ \(ESTABLISHED, nothing queued\); the other end is python3 trickle-server\.py/,
    );
    await stop(stalled.proc, stalled.monitor);
  });

  it('keeps sampling a process that opens and closes pipes, files and sockets between and during samples', async () => {
    const { proc, monitor } = await start('python3 fd-churn.py');
    const pids = [proc.pid, ...proc.pids()];
    let sample = sampleTree(pids);
    let sampled = 0;
    for (let round = 0; round < 300; round++) {
      sample = sampleTree(pids, sample);
      if (sample.snapshot.processes.some((p) => p.pid === proc.pid)) sampled++;
      expect(Array.isArray(sample.snapshot.waits?.relations)).toBe(true);
    }
    releaseSample(sample);
    expect(sampled).toBe(300);
    await stop(proc, monitor);
  });
});
