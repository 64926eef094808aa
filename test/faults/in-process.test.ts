import { readdirSync, rmdirSync } from 'node:fs';
import { mkdir, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentFactory, AgentSession } from '../../src/agents/protocol.js';
import { createAgentFactory } from '../../src/agents/registry.js';
import { loadTokenizer } from '../../src/agents/tokens.js';
import { loadCaseFile } from '../../src/cases/load-cases.js';
import { createMonitor, type MonitorEvent } from '../../src/monitor/index.js';
import type { Reporter } from '../../src/run/reporter-hooks.js';
import { resolveOptions } from '../../src/run/options.js';
import { runEval } from '../../src/run/run-eval.js';
import { attemptDir, runAttempt, type Attempt } from '../../src/attempt/run-attempt.js';
import { createSandbox, probeHost, type HostCapabilities } from '../../src/sandbox/index.js';
import type { Case } from '../../src/types/case.js';
import type { VariantSpec } from '../../src/types/variant.js';
import { requireCgroup } from '../support/capability.js';
import { allGone, HOSTILE, PROJECT_ROOT, runId, until } from './support.js';

const STUBBORN = path.join(HOSTILE, 'special/stubborn.yaml');
let capabilities: HostCapabilities;

beforeAll(async () => {
  capabilities = await probeHost();
  loadTokenizer();
});

async function loadCase(file: string): Promise<Case> {
  const loaded = await loadCaseFile(file);
  if ('problems' in loaded) throw new Error(JSON.stringify(loaded.problems));
  return loaded;
}

/** The baseline never killing, with a wall budget of `wallMs` at time scale 0.1 (so wallMs / 10 of real time). */
function neverKill(wallMs: number): VariantSpec {
  return {
    name: 'never-kill',
    agent: { agent: 'baseline', hungTicks: 1_000_000 },
    monitor: { mode: 'interval', everyMs: 2_000 },
    budgets: { wallMs },
  };
}

async function attemptOf(id: string, variant: VariantSpec) {
  const runDir = await mkdtemp(path.join(tmpdir(), 'hangbench-faults-inproc-'));
  const options = resolveOptions({ runId: id, timeScale: 0.1, cwd: PROJECT_ROOT });
  const attempt: Attempt = { testCase: await loadCase(STUBBORN), variant, repeat: 1 };
  return { runDir, options, attempt, agent: createAgentFactory(variant.agent, { cwd: PROJECT_ROOT, timeScale: 0.1 }) };
}

describe('the sandbox changed from outside', () => {
  it('its cgroup removed between two commands: the next command cannot start, and the attempt is an error naming the cgroup', async (context) => {
    requireCgroup(
      context,
      capabilities.cgroupRoot !== null || capabilities.pidsCgroupRoot !== null,
      'an attempt cgroup to remove',
    );
    const id = runId('cgroup');
    const { runDir, options, attempt } = await attemptOf(id, neverKill(600_000));
    const results: string[] = [];
    let removed = 0;
    const agent: AgentFactory = {
      name: 'scripted',
      create: (): AgentSession => {
        let step = 0;
        return {
          next: async (observation) => {
            step += 1;
            if (observation.type === 'exit' || observation.type === 'result')
              results.push(observation.type === 'exit' ? `exit ${observation.exit.exitCode}` : observation.message);
            if (step === 1) return { type: 'run', command: 'echo one' };
            if (step === 2) {
              // Between commands the attempt's cgroups are empty: a cleaner on the host may remove them.
              const dirs = cgroupDirsOf(id);
              removed += dirs.length;
              // the first command's processes may still be leaving its cgroup (EBUSY until they are reaped)
              for (const dir of dirs)
                await until(() => (tryRmdir(dir) ? true : null), `${dir} to be removable`, 10_000);
              return { type: 'run', command: 'echo two' };
            }
            return { type: 'finish', summary: 'done' };
          },
        };
      },
    };
    const scores = await runAttempt(attempt, {
      options,
      runDir,
      capabilities,
      agent,
      shutdown: new AbortController().signal,
    });
    expect(results[0]).toBe('exit 0');
    expect(removed).toBeGreaterThan(0);
    expect(scores).toMatchObject({
      outcome: 'error',
      fault: {
        where: 'sandbox',
        code: 'SANDBOX_LOST',
        message: expect.stringMatching(/cgroup .* was removed from outside the harness/),
      },
    });
    await allGone(id);
  });
});

describe('budgets hold whatever else fails', () => {
  it('a trace that cannot be written (trace.jsonl on /dev/full): the attempt stops at once as an error with the cause, nothing left', async () => {
    const id = runId('devfull');
    const { runDir, options, attempt, agent } = await attemptOf(id, neverKill(600_000));
    const dir = attemptDir(runDir, attempt);
    await mkdir(dir, { recursive: true });
    await symlink('/dev/full', path.join(dir, 'trace.jsonl'));
    const started = performance.now();
    const scores = await runAttempt(attempt, {
      options,
      runDir,
      capabilities,
      agent,
      shutdown: new AbortController().signal,
    });
    const tookMs = performance.now() - started;
    console.log(`trace on /dev/full → attempt over in ${tookMs.toFixed(0)} ms (wall budget 60 s)`);
    expect(scores).toMatchObject({ outcome: 'error', fault: { where: 'results', code: 'ENOSPC' } });
    expect(tookMs).toBeLessThan(30_000);
    await allGone(id);
  });

  it("a tick listener (a reporter's onTick) that throws on every tick: the wall budget still stops the attempt, nothing left", async () => {
    const id = runId('ontick');
    // 20 s of wall budget at 0.1: the attempt is stopped after 2 s.
    const { runDir, options, attempt, agent } = await attemptOf(id, neverKill(20_000));
    let throws = 0;
    const started = performance.now();
    const scores = await runAttempt(attempt, {
      options,
      runDir,
      capabilities,
      agent,
      shutdown: new AbortController().signal,
      onTick: () => {
        throws += 1;
        throw new Error('reporter bug');
      },
    });
    const tookMs = performance.now() - started;
    console.log(
      `onTick throwing ${throws} times → wall budget (2 s) stopped the attempt after ${tookMs.toFixed(0)} ms`,
    );
    expect(throws).toBeGreaterThan(0);
    expect(scores?.outcome).toBe('limit');
    expect(scores?.scores.clean).toBe(true);
    expect(tookMs).toBeLessThan(30_000);
    await allGone(id);
  });

  it('a monitor listener that throws on every event: the others still get every event and the exit, one warning in all', async () => {
    const sandbox = await createSandbox({
      attemptId: `${runId('listener')}.monitor`,
      workspaceSource: path.join(HOSTILE, 'canary/workspace'),
      timeScale: 0.1,
      capabilities,
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const monitor = createMonitor({
        process: sandbox.spawn('for i in 1 2 3 4 5; do echo step $i; sleep 0.1; done', { commandId: 1 }),
        mode: { mode: 'interval', everyMs: 100 },
      });
      monitor.on(() => {
        throw new Error('listener bug');
      });
      const seen: MonitorEvent[] = [];
      monitor.on((event) => seen.push(event));
      let event = await monitor.nextTickOrExit();
      while (event.type === 'tick') event = await monitor.nextTickOrExit();
      expect(event.exit.exitCode).toBe(0);
      expect(seen.filter((one) => one.type === 'tick').length).toBeGreaterThan(1);
      expect(seen.at(-1)?.type).toBe('exit');
      await until(() => (warnings.length > 0 ? true : null), 'the warning');
      expect(warnings.filter((message) => message.includes('monitor listener threw'))).toHaveLength(1);
    } finally {
      process.off('warning', onWarning);
      await sandbox.leakScan();
      await sandbox.dispose();
    }
  });

  it('a reporter that throws in every hook, and a shutdown mid-attempt: the run still stops within its bound, nothing left', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-faults-reporter-'));
    const id = runId('reporter');
    const broken = (hook: string) => () => {
      throw new Error(`${hook} broke`);
    };
    const reporter: Required<Reporter> = {
      name: 'thrower',
      onRunStart: broken('onRunStart'),
      onAttemptStart: broken('onAttemptStart'),
      onTick: broken('onTick'),
      onAttemptEnd: broken('onAttemptEnd'),
      onRunEnd: broken('onRunEnd'),
    };
    const shutdown = new AbortController();
    let ticks = 0;
    const counting: Required<Reporter> = { ...reporter, onTick: () => void (ticks += 1) };
    const run = runEval(
      {
        caseInputs: [STUBBORN],
        agent: 'baseline',
        hungTicks: 1_000_000,
        timeScale: 0.1,
        intervalMs: 2_000,
        out,
        runId: id,
        cwd: PROJECT_ROOT,
      },
      { reporters: [reporter, counting], shutdown: shutdown.signal },
    );
    await until(() => (ticks >= 3 ? true : null), 'the attempt to tick');
    const stoppedAt = performance.now();
    shutdown.abort('test');
    const result = await run;
    const tookMs = performance.now() - stoppedAt;
    console.log(`throwing reporter, shutdown → runEval returned in ${tookMs.toFixed(0)} ms`);
    expect(result.interrupted).toBe(true);
    expect(tookMs).toBeLessThan(6_000);
    await allGone(id);
  });
});

/** The attempt's cgroup folders in every hierarchy (named after the attempt id), deepest first. */
function cgroupDirsOf(id: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 4) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const child = path.join(dir, entry.name);
      if (entry.name.startsWith(id)) found.push(child);
      else walk(child, depth + 1);
    }
  };
  walk('/sys/fs/cgroup', 0);
  // a command's own cgroup (cmd-N) sits under the attempt's: remove it first
  return found.flatMap((dir) => [
    ...readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(dir, entry.name)),
    dir,
  ]);
}

function tryRmdir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EBUSY') return false;
    throw error;
  }
}
