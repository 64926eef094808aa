import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULTS } from '../../src/defaults.js';
import { cpuWeight, expectedDurationMs, historyKey } from '../../src/run/expected-duration.js';
import { loadCases } from '../../src/cases/load-cases.js';
import { admissionLimits, admissionNote, runScheduled } from '../../src/run/scheduler.js';
import { planAttempts, type SchedulableAttempt } from '../../src/run/scheduler-order.js';
import type { Case } from '../../src/types/case.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');
let cases: readonly Case[];
const baseline = (name = 'baseline-10s') => ({ name, agent: 'baseline', intervalMs: 10_000 });

beforeAll(async () => {
  const loaded = await loadCases([path.join(projectRoot, 'cases')], projectRoot);
  expect(loaded.problems).toEqual([]);
  cases = loaded.cases;
});

const byId = (id: string): Case => {
  const found = cases.find((testCase) => testCase.id === id);
  if (!found) throw new Error(`no case ${id} in cases/`);
  return found;
};

describe('expectedDurationMs', () => {
  it('puts a hang whose verify steps run to long timeouts before a short control, scaled by the time scale', () => {
    const long = expectedDurationMs(byId('py-capture-grandchild'), baseline(), 1);
    const short = expectedDurationMs(byId('ctl-block-buffered'), baseline(), 1);
    expect(long).toBeGreaterThan(short);
    expect(expectedDurationMs(byId('py-capture-grandchild'), baseline(), 0.1)).toBeLessThan(long / 5);
  });

  it('uses the median of earlier durations when history has the case and variant', () => {
    const history = new Map([[historyKey('ctl-block-buffered', 'baseline-10s'), [100_000, 200_000, 400_000]]]);
    const learned = expectedDurationMs(byId('ctl-block-buffered'), baseline(), 0.5, history);
    expect(learned).toBeGreaterThan(100_000);
    expect(learned).toBeLessThan(110_000);
    expect(expectedDurationMs(byId('ctl-block-buffered'), baseline('other'), 0.5, history)).toBe(
      expectedDurationMs(byId('ctl-block-buffered'), baseline('other'), 0.5),
    );
  });

  it('reads a VariantSpec too: the monitor interval and the baseline hungTicks lengthen a hang', () => {
    const testCase = byId('py-lock-order');
    const quick = expectedDurationMs(
      testCase,
      { name: 'b', agent: { agent: 'baseline', hungTicks: 1 }, monitor: { mode: 'interval', everyMs: 2_000 } },
      1,
    );
    const slow = expectedDurationMs(
      testCase,
      { name: 'b', agent: { agent: 'baseline', hungTicks: 4 }, monitor: { mode: 'interval', everyMs: 10_000 } },
      1,
    );
    expect(slow).toBeGreaterThan(quick);
  });

  it('weighs only the classes that keep cores busy: a flood two (program and harness), a busy program one', () => {
    const heavy = cases
      .filter((testCase) => cpuWeight(testCase) > 0)
      .map((testCase) => [testCase.id, cpuWeight(testCase)]);
    expect(Object.fromEntries(heavy)).toEqual({
      'ctl-quiet-optimizer': 1,
      'node-busy-loop': 1,
      'perl-regex-flood': 2,
      'py-livelock': 1,
    });
  });
});

describe('planAttempts', () => {
  const attemptsOf = (ids: readonly string[], variants: readonly string[], repeats: number): SchedulableAttempt[] =>
    ids.flatMap((id) =>
      variants.flatMap((variant) =>
        Array.from({ length: repeats }, (_, index) => ({
          testCase: byId(id),
          variant: baseline(variant),
          repeat: index + 1,
        })),
      ),
    );

  it('orders cases longest-expected first and keeps a case’s attempts together, repeat by repeat', () => {
    const plan = planAttempts(
      attemptsOf(['ctl-block-buffered', 'py-capture-grandchild', 'py-lock-order'], ['a', 'b'], 2),
      7,
      1,
    );
    const expected = plan.map((planned) => planned.expectedMs);
    const caseOrder = [...new Set(plan.map((planned) => planned.attempt.testCase.id))];
    expect(caseOrder[0]).toBe('py-capture-grandchild');
    expect(caseOrder.at(-1)).toBe('ctl-block-buffered');
    expect(expected[0]).toBe(Math.max(...expected));
    expect(plan.slice(0, 4).map((planned) => planned.attempt.repeat)).toEqual([1, 1, 2, 2]);
    expect(plan.map((planned) => planned.position)).toEqual(plan.map((_, index) => index));
  });

  it('starts the cases that keep a core busy before all others, since their attempts share the CPU slots in turn', () => {
    const plan = planAttempts(
      attemptsOf(
        cases.map((testCase) => testCase.id),
        ['a', 'b'],
        1,
      ),
      3,
      1,
    );
    const heavy = plan.map((planned) => planned.cpuWeight > 0);
    const firstLight = heavy.indexOf(false);
    expect(firstLight).toBe(2 * cases.filter((testCase) => cpuWeight(testCase) > 0).length);
    expect(heavy.slice(firstLight).includes(true)).toBe(false);
    const light = plan.slice(firstLight).map((planned) => planned.expectedMs);
    expect(light[0]).toBe(Math.max(...light));
  });

  it('gives the same order for the same seed, and lets no variant always go first', () => {
    const attempts = attemptsOf(
      cases.map((testCase) => testCase.id),
      ['a', 'b'],
      1,
    );
    const names = (seed: number) =>
      planAttempts(attempts, seed, 1).map(
        (planned) => `${planned.attempt.testCase.id}/${planned.attempt.variant.name}`,
      );
    expect(names(42)).toEqual(names(42));
    expect(names(42)).not.toEqual(names(43));
    const firstOfCase = new Map<string, string>();
    for (const planned of planAttempts(attempts, 42, 1)) {
      if (!firstOfCase.has(planned.attempt.testCase.id))
        firstOfCase.set(planned.attempt.testCase.id, planned.attempt.variant.name);
    }
    const aFirst = [...firstOfCase.values()].filter((name) => name === 'a').length;
    expect(aFirst).toBeGreaterThan(10);
    expect(aFirst).toBeLessThan(cases.length - 10);
  });
});

describe('runScheduled', () => {
  const plannedAll = () =>
    planAttempts(
      cases.map((testCase) => ({ testCase, variant: baseline(), repeat: 1 })),
      1,
      1,
    );

  it('never fills more CPU slots than it has, nor runs more attempts than the cap, and runs each once', async () => {
    const plan = plannedAll();
    let running = 0;
    let cpu = 0;
    let maxRunning = 0;
    let maxCpu = 0;
    let floodBesideHeavy = false;
    const heavyIds = new Set<string>();
    const results = await runScheduled(
      plan,
      { maxRunning: 6, cpuSlots: 2, startGapMs: 0, startupCores: Infinity, bootSlots: 1, bootIdleCores: 0 },
      async (attempt, planned) => {
        running += 1;
        cpu += planned.cpuWeight;
        if (planned.cpuWeight > 0) heavyIds.add(attempt.testCase.id);
        if (planned.cpuWeight === 2 && cpu > 2) floodBesideHeavy = true;
        maxRunning = Math.max(maxRunning, running);
        maxCpu = Math.max(maxCpu, cpu);
        // heavy attempts last longer, so the light ones behind them must be let past
        await new Promise((resolve) => setTimeout(resolve, planned.cpuWeight > 0 ? 30 : 5));
        running -= 1;
        cpu -= planned.cpuWeight;
        return attempt.testCase.id;
      },
    );
    expect(results).toEqual(plan.map((planned) => planned.attempt.testCase.id));
    expect(maxRunning).toBe(6);
    expect(maxCpu).toBe(2);
    expect(floodBesideHeavy).toBe(false);
    expect(heavyIds.size).toBe(4);
  });

  it('lets light attempts past a heavy one that waits for a slot', async () => {
    const plan = plannedAll();
    const started: string[] = [];
    // A heavy attempt holds its slot until every light one has finished: no timer decides the order. Were light ones
    // not let past a waiting heavy one, they would never all finish and the test would time out.
    let lightsLeft = plan.filter((planned) => planned.cpuWeight === 0).length;
    let lightsFinished!: () => void;
    const allLightsDone = new Promise<void>((resolve) => (lightsFinished = resolve));
    if (lightsLeft === 0) lightsFinished();
    await runScheduled(
      plan,
      { maxRunning: 3, cpuSlots: 1, startGapMs: 0, startupCores: Infinity, bootSlots: 1, bootIdleCores: 0 },
      async (attempt, planned) => {
        started.push(attempt.testCase.id);
        if (planned.cpuWeight > 0) return allLightsDone;
        await Promise.resolve();
        if (--lightsLeft === 0) lightsFinished();
      },
    );
    const heavyIds = plan.filter((planned) => planned.cpuWeight > 0).map((planned) => planned.attempt.testCase.id);
    const secondHeavy = started.indexOf(heavyIds[1]!);
    // the second heavy attempt in plan order could not start before the first had finished: light ones filled in
    expect(secondHeavy).toBeGreaterThan(plan.findIndex((planned) => planned.attempt.testCase.id === heavyIds[1]));
  });

  it('with --concurrency 1 runs the plan strictly in order, one at a time', async () => {
    const plan = plannedAll();
    const started: number[] = [];
    let running = 0;
    await runScheduled(plan, admissionLimits(1, 2), async (_, planned) => {
      running += 1;
      expect(running).toBe(1);
      started.push(planned.position);
      await Promise.resolve();
      running -= 1;
    });
    expect(started).toEqual(plan.map((planned) => planned.position));
  });

  it('defaults to CPU slots for all cores but one and 16 idle attempts per core; refuses a cap below 1', async () => {
    expect(admissionLimits(undefined, 2)).toMatchObject({ maxRunning: 32, cpuSlots: 1 });
    expect(admissionLimits(undefined, 8)).toMatchObject({ maxRunning: 128, cpuSlots: 7 });
    expect(admissionLimits(undefined, 1)).toMatchObject({ maxRunning: 16, cpuSlots: 1 });
    expect(admissionLimits(8, 2)).toMatchObject({ maxRunning: 8, cpuSlots: 1 });
    expect(admissionLimits(1, 4)).toMatchObject({ maxRunning: 1, cpuSlots: 1, startGapMs: 0 });
    await expect(runScheduled(plannedAll(), admissionLimits(0, 2), async () => undefined)).rejects.toThrow(
      /at least 1/,
    );
  });

  const oracle = { name: 'oracle', agent: 'oracle', intervalMs: 10_000 };
  const peakRunning = async (
    timeScale: number,
    variant: typeof oracle,
  ): Promise<{ peak: number; peakShare: number }> => {
    const plan = planAttempts(
      cases.map((testCase) => ({ testCase, variant, repeat: 1 })),
      1,
      timeScale,
    );
    const limits = { ...admissionLimits(undefined, 2), startGapMs: 0 };
    let running = 0;
    let share = 0;
    let peak = 0;
    let peakShare = 0;
    await runScheduled(plan, limits, async (_, planned) => {
      running += 1;
      share += planned.startupShare;
      peak = Math.max(peak, running);
      if (running > 1) peakShare = Math.max(peakShare, share);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      share -= planned.startupShare;
    });
    expect(peakShare).toBeLessThanOrEqual(limits.startupCores + 1e-9);
    return { peak, peakShare };
  };

  it("at a small time scale admits by the attempts' unscaled work, not their count, and says so before the run", async () => {
    const small = await peakRunning(0.1, oracle);
    expect(small.peak).toBeGreaterThan(1);
    expect(small.peak).toBeLessThan(32);
    const plan = planAttempts(
      cases.map((testCase) => ({ testCase, variant: oracle, repeat: 1 })),
      1,
      0.1,
    );
    expect(admissionNote(plan, admissionLimits(undefined, 2), 0.1, 2)).toMatch(
      /running about \d+ attempts at once on 2 cores \(not 32\)/,
    );
    expect(admissionNote(plan, admissionLimits(32, 2), 0.1, 2, 32)).toMatch(
      /^warning: --concurrency 32 on 2 cores: .*\(scores then depend on the load\)$/,
    );
  });

  it('at time scale 1 the baseline still runs 32 at once on 2 cores, without a note', async () => {
    expect((await peakRunning(1, baseline())).peak).toBe(32);
    const plan = planAttempts(
      cases.map((testCase) => ({ testCase, variant: baseline(), repeat: 1 })),
      1,
      1,
    );
    expect(admissionNote(plan, admissionLimits(undefined, 2), 1, 2)).toBeNull();
  });

  // An installed CLI boots for seconds of CPU before its first model request; 42 booting at once on 2 cores starved
  // each other so long that some ran their repro only after the wall budget had begun to end them, and one a core
  // still drove the load to 50: a boot waits for idle CPU as well.
  const cli = { name: 'cli-codex', agent: { agent: 'cli' }, intervalMs: 10_000 };
  const cliPlan = (count: number) =>
    planAttempts(
      cases.slice(0, count).map((testCase) => ({ testCase, variant: cli, repeat: 1 })),
      1,
      1,
    );
  const idleStub = (cores: number) => ({
    cores: () => cores,
    sample: () => undefined,
    set: (to: number) => (cores = to),
  });
  const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });

  it('starts a CLI only while fewer than the boot slots boot and the machine has shown idle CPU since the last boot', async () => {
    const plan = cliPlan(4);
    expect(plan.every((planned) => planned.boots)).toBe(true);
    expect(planAttempts([{ testCase: cases[0]!, variant: baseline(), repeat: 1 }], 1, 1)[0]!.boots).toBe(false);
    fakeTimers();
    try {
      const idle = idleStub(2);
      const ups: (() => void)[] = [];
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const limits = { ...admissionLimits(undefined, 2), startGapMs: 0, bootSlots: 2, bootIdleCores: 0.5 };
      const run = runScheduled(
        plan,
        limits,
        async (_, __, up) => {
          ups.push(up);
          await finished;
        },
        idle,
      );
      await vi.advanceTimersByTimeAsync(0);
      expect(ups).toHaveLength(1); // nothing ran: the first starts at once
      await vi.advanceTimersByTimeAsync(DEFAULTS.bootSampleMs * 2);
      expect(ups).toHaveLength(1); // readings since that boot: 2 of the 3 the window needs
      await vi.advanceTimersByTimeAsync(DEFAULTS.bootSampleMs);
      expect(ups).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(DEFAULTS.bootSampleMs * 6);
      expect(ups).toHaveLength(2); // both slots taken
      idle.set(0.2);
      ups[0]!();
      await vi.advanceTimersByTimeAsync(DEFAULTS.bootSampleMs * 6);
      expect(ups).toHaveLength(2); // a slot is free, the machine is not
      idle.set(1);
      await vi.advanceTimersByTimeAsync(DEFAULTS.bootSampleMs);
      expect(ups).toHaveLength(3);
      finish();
      await vi.advanceTimersByTimeAsync(DEFAULTS.bootSampleMs * 3);
      await run;
      expect(ups).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives a boot slot back after bootWaitMs when the agent never comes up, and at the end of the attempt', async () => {
    const plan = cliPlan(2);
    fakeTimers();
    try {
      const started: number[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const limits = { ...admissionLimits(undefined, 2), startGapMs: 0, bootSlots: 1, bootIdleCores: 0 };
      const run = runScheduled(
        plan,
        limits,
        async (_, planned) => {
          started.push(planned.position);
          await held; // never calls up
        },
        idleStub(2),
      );
      await vi.advanceTimersByTimeAsync(DEFAULTS.bootWaitMs - 1);
      expect(started).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(DEFAULTS.bootSampleMs);
      expect(started).toHaveLength(2);
      release();
      await run;
    } finally {
      vi.useRealTimers();
    }
    const ended: number[] = [];
    const limits = { ...admissionLimits(undefined, 2), startGapMs: 0, bootSlots: 1, bootIdleCores: 0 };
    await runScheduled(plan, limits, async (_, planned) => void ended.push(planned.position), idleStub(2));
    expect(ended).toHaveLength(2);
  });
});
