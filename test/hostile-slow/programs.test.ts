import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeHost } from '../../src/sandbox/index.js';
import { DEFAULTS } from '../../src/defaults.js';
import { requireCapability, requireCgroup } from '../support/capability.js';
import {
  DECISION_SLACK_MS,
  RSS_GROWTH_BOUND_BYTES,
  runHostile,
  the,
  type AttemptView,
  type HostileRun,
} from './run-hostile.js';

const MiB = 1024 ** 2;
const rows: string[] = [];

/**
 * What holds for every hostile program: it ran beside a healthy canary, the attempt ended within its budget with every
 * process gone, the canary completed untouched, and the harness's memory stayed bounded. Returns the program's attempt.
 */
function expectHeld(run: HostileRun, id: string): AttemptView {
  expect(run.leftovers).toEqual([]);
  const attempt = the(run.attempts.get(id), `an attempt of ${id}`);
  const start = the(attempt.of('attempt.start')[0], 'attempt.start');
  const end = the(attempt.of('attempt.end')[0], 'attempt.end');
  expect(end.outcome).not.toBe('error');
  for (const kill of attempt.of('kill'))
    expect({ by: kill.by, survivors: kill.survivors, gone: kill.goneMs !== null }).toEqual({
      by: kill.by,
      survivors: [],
      gone: true,
    });
  const limit = attempt.of('limit')[0];
  if (limit) {
    expect(limit.kind).toBe('wall');
    // the budget moves by the CPU wait that others caused (cpuWaitMs, never past the cap), no further
    expect(limit.cpuWaitMs ?? 0).toBeLessThanOrEqual(start.budgets.wallMs * (DEFAULTS.wallCpuWaitCap - 1));
    expect(limit.t, lateWall(attempt)).toBeLessThanOrEqual(
      start.budgets.wallMs + (limit.cpuWaitMs ?? 0) + DECISION_SLACK_MS,
    );
    expect(attempt.of('kill').find((kill) => kill.by === 'budget')).toBeDefined();
  }

  const canary = the(
    run.result.summary.attempts.find((scores) => scores.caseId === 'canary'),
    'the canary',
  );
  expect({ outcome: canary.outcome, ...canary.scores }).toMatchObject({
    outcome: 'completed',
    completed: true,
    false_kill: false,
    clean: true,
    solved: true,
  });
  expect(the(run.attempts.get('canary'), 'canary trace').of('kill')).toEqual([]);

  expect(run.rss.peak - run.rss.before).toBeLessThanOrEqual(RSS_GROWTH_BOUND_BYTES);
  const kill = attempt.of('kill')[0];
  const exit = attempt.of('command.exit')[0];
  const hits = attempt.of('sandbox.limit').map((hit) => `${hit.kind} ×${hit.hits}`);
  rows.push(
    `| ${id} | ${end.outcome}${limit ? ' (wall)' : ''} | ${exit ? (exit.signal ?? `exit ${exit.exitCode}`) : '–'} | ` +
      `${kill ? `${kill.by}: ${kill.steps.map((step) => step.signal).join('→')}, gone in ${kill.goneMs} ms` : 'no kill'} | ${hits.join(', ') || '–'} | ` +
      `${attempt.of('leak').length > 0 ? 'leak found + killed' : 'clean'} | ${(run.rss.peak / MiB).toFixed(0)} MiB (+${((run.rss.peak - run.rss.before) / MiB).toFixed(0)}) |`,
  );
  return attempt;
}

/** What a late wall limit is shown with: when the ticks came (a harness kept from a CPU ticks late, or not at all). */
function lateWall(attempt: AttemptView): string {
  const ticks = attempt.of('tick').map((tick) => Math.round(tick.t));
  const gaps = ticks.slice(1).map((t, index) => t - ticks[index]!);
  const credit = attempt.of('limit')[0]?.cpuWaitMs ?? 0;
  return `the wall limit came late (budget moved ${credit} ms by CPU wait); ${ticks.length} ticks at t=${ticks.join(',')} ms (longest gap ${Math.max(0, ...gaps)} ms)`;
}

describe('hostile programs, each beside a healthy canary (baseline agent that never kills: budgets and the sandbox decide)', () => {
  // Warm up (modules, the token counter's ranks) so that each measurement shows what the hostile program costs.
  beforeAll(async () => {
    await runHostile(['canary']);
  });

  afterAll(() => {
    console.log(
      [
        '| program | outcome | command ended by | kill | sandbox limits hit | leak scan | harness rss peak (growth) |',
        '|---|---|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
    );
  });

  it('a fork bomb is held at the process limit, the harness stays responsive, and the trace says the limit refused forks', async (ctx) => {
    const caps = await probeHost();
    // Never run a fork bomb without a process limit that binds; for root that is only a pids cgroup.
    requireCgroup(
      ctx,
      caps.processLimit !== 'none',
      `a pids cgroup: root is not bound by RLIMIT_NPROC; probe: ${caps.processLimit}`,
    );
    const run = await runHostile(['fork-bomb', 'canary']);
    const attempt = expectHeld(run, 'fork-bomb');
    expect(attempt.of('kill')[0]?.treeSize).toBeGreaterThan(100);
    // A pids cgroup counts the refused forks; RLIMIT_NPROC (non-root without a cgroup) refuses them without a count.
    if (caps.processLimit === 'pids-cgroup') {
      const limit = the(
        attempt.of('sandbox.limit').find((hit) => hit.kind === 'processes'),
        'a processes limit event',
      );
      expect(limit).toMatchObject({ limit: 512 });
      expect(limit.hits).toBeGreaterThan(0);
    } else {
      // RLIMIT_NPROC counts every process of the user: the bomb never held more than 512.
      expect(caps.processLimit).toBe('rlimit');
      expect(caps.notes.join('\n')).toMatch(/process limit by RLIMIT_NPROC/);
      expect(attempt.of('kill')[0]?.treeSize).toBeLessThanOrEqual(512);
    }
    // verify ran after the bomb's zombies were reaped: it could fork
    expect(attempt.of('verify')[0]).toMatchObject({ timedOut: false, exitCode: 1 });
  });

  it('a memory hog of four processes is stopped by the attempt memory limit, not the host', async (ctx) => {
    const caps = await probeHost();
    // Either hierarchy bounds the attempt: v1 memory.limit_in_bytes or v2 memory.max (a pure v2 host).
    requireCgroup(ctx, caps.cgroupLimits.memory !== null, 'a memory controller, v1 or v2');
    const run = await runHostile(['memory-hog', 'canary']);
    const attempt = expectHeld(run, 'memory-hog');
    const limit = the(
      attempt.of('sandbox.limit').find((hit) => hit.kind === 'memory'),
      'a memory limit event',
    );
    expect(limit.limit).toBe(2 * 1024 ** 3);
    expect(limit.hits).toBeGreaterThan(0);
  });

  it('a disk filler is stopped at the file-size limit and keeps running until the budget kills it', async () => {
    const run = await runHostile(['disk-filler', 'canary']);
    const attempt = expectHeld(run, 'disk-filler');
    expect(await attempt.log()).toContain('write refused after 512 MiB: File too large');
    expect(attempt.of('kill')[0]?.by).toBe('budget');
  });

  it('a 2 GiB output flood is read to its end with bounded memory and a capped log', async () => {
    const run = await runHostile(['output-flood', 'canary']);
    const attempt = expectHeld(run, 'output-flood');
    expect(attempt.of('command.exit')[0]).toMatchObject({ exitCode: 0, killed: false });
    expect(attempt.of('output').at(-1)?.totalBytes).toBe(2 * 1024 ** 3 + 'flood starts\n'.length);
    const log = await attempt.log();
    expect(log.length).toBeLessThan(11 * MiB);
    expect(log).toContain('[log truncated at 10485760 bytes]');
    for (const tick of attempt.of('tick')) expect(tick.output.text.length).toBeLessThan(16 * 1024);
  });

  it('binary and invalid UTF-8 output leaves a valid trace, and the onset after it is still seen', async () => {
    const run = await runHostile(['binary-output', 'canary']);
    const attempt = expectHeld(run, 'binary-output');
    expect(attempt.of('onset')[0]?.trigger).toContain('end of binary');
    const texts = attempt
      .of('tick')
      .map((tick) => tick.output.text)
      .join('');
    expect(texts).toContain('\uFFFD');
    expect(attempt.of('kill')[0]?.by).toBe('budget');
  });

  it('a 10 MiB line without a newline is cut to a bounded tick, and ticks keep coming while it arrives', async () => {
    const run = await runHostile(['long-line', 'canary']);
    const attempt = expectHeld(run, 'long-line');
    const ticks = attempt.of('tick');
    expect(ticks.at(-1)?.totalOutputBytes).toBeGreaterThanOrEqual(10 * MiB);
    for (const tick of ticks) expect(tick.output.text.length).toBeLessThan(16 * 1024);
    expect(ticks.some((tick) => tick.output.cutBytes > 0)).toBe(true);
  });

  it('a program that closes its stdout and keeps running is still killed at the budget', async () => {
    const run = await runHostile(['closed-stdout', 'canary']);
    const attempt = expectHeld(run, 'closed-stdout');
    expect(attempt.of('command.exit')[0]).toMatchObject({ killed: true });
    expect(attempt.of('kill')[0]?.by).toBe('budget');
  });

  it('a setsid() daemon left behind by a command that exits 0 is found by the leak scan, killed, and scored not clean', async () => {
    const run = await runHostile(['setsid-daemon', 'canary']);
    const attempt = expectHeld(run, 'setsid-daemon');
    expect(attempt.of('command.exit')[0]).toMatchObject({ exitCode: 0, killed: false });
    expect(attempt.of('leak')[0]?.processes).toEqual([expect.objectContaining({ command: 'sleep 1000' })]);
    expect(run.result.summary.attempts.find((scores) => scores.caseId === 'setsid-daemon')?.scores.clean).toBe(false);
  });

  it('a program that ignores SIGINT and SIGTERM is escalated to SIGKILL', async () => {
    const run = await runHostile(['ignores-signals', 'canary']);
    const attempt = expectHeld(run, 'ignores-signals');
    const kill = the(attempt.of('kill')[0], 'a kill');
    expect(kill.escalatedToKill).toBe(true);
    expect(kill.steps.map((step) => step.signal)).toEqual([
      'SIGTERM',
      'SIGCONT',
      kill.mechanism === 'cgroup-v2' ? 'cgroup.kill' : 'SIGKILL',
    ]);
    expect(attempt.of('command.exit')[0]?.signal).toBe('SIGKILL');
  });

  it('stopped processes are seen as stopped and continued so that SIGTERM can end them', async () => {
    const run = await runHostile(['stopped', 'canary']);
    const attempt = expectHeld(run, 'stopped');
    expect(attempt.of('tick').some((tick) => tick.classification === 'stopped')).toBe(true);
    expect(attempt.of('kill')[0]?.steps.map((step) => step.signal)).toContain('SIGCONT');
  });

  it('a zombie factory fills the process limit, and verify still runs once the zombies are reaped', async () => {
    const run = await runHostile(['zombie-factory', 'canary']);
    const attempt = expectHeld(run, 'zombie-factory');
    expect(await attempt.log()).toMatch(/fork refused after \d+ zombies/);
    expect(attempt.of('verify')[0]).toMatchObject({ timedOut: false, exitCode: 1 });
  });

  it('processes that leave their process group are still killed (the group signal misses them; TERM to each does not)', async () => {
    const run = await runHostile(['own-group', 'canary']);
    const attempt = expectHeld(run, 'own-group');
    const log = await attempt.log();
    expect(log).toMatch(/parent \d+ stays in group \d+/);
    expect(log.match(/child \d+ in group \d+/g)).toHaveLength(2);
    expect(attempt.of('kill')[0]?.steps.map((step) => step.signal)).toEqual(['SIGTERM', 'SIGCONT']);
  });

  it('a program that connects out finds no network (only loopback) in the sandbox', async (ctx) => {
    const caps = await probeHost();
    // bubblewrap makes the jail's network namespace itself (as non-root too, where `unshare --net` is refused).
    requireCapability(ctx, 'network namespace', caps.netns || caps.isolation === 'bubblewrap');
    const run = await runHostile(['network-out', 'canary']);
    const attempt = expectHeld(run, 'network-out');
    const log = await attempt.log();
    expect(log).toContain('tcp 1.1.1.1:443: failed: [Errno 101] Network is unreachable');
    expect(log).toMatch(/tcp \[2606:4700:4700::1111\]:443: failed: .*(unreachable|Cannot assign)/);
    expect(log).toMatch(/dns example\.com: failed/);
    expect(log).toContain('loopback: connected');
  });
});
