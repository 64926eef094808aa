import { availableParallelism } from 'node:os';
import { DEFAULTS } from '../defaults.js';
import { BootGate, type IdleSource } from './boot-gate.js';
import type { PlannedAttempt, SchedulableAttempt } from './scheduler-order.js';

/**
 * How many attempts may run at once. Most attempts sit idle beside a hung program, so the cap is far above the
 * core count; the few that keep cores busy take CPU slots (their cpuWeight), and the slots leave one core free.
 */
export interface AdmissionLimits {
  readonly maxRunning: number;
  /** cores the CPU-heavy attempts may fill together; an attempt heavier than this runs alone. */
  readonly cpuSlots: number;
  /** ms between two starts: sandbox set-up and program start-up are CPU bursts that would otherwise all coincide. */
  readonly startGapMs: number;
  /**
   * cores the attempts' unscaled work (set-up, start-ups: their startupShare) may fill together. At a small time
   * scale that work no longer spreads thin over long waits, and admitting by count alone starves every attempt's
   * budgets and verify timeouts; Infinity with --concurrency, which the user chose.
   */
  readonly startupCores: number;
  /** installed agent CLIs booting at once (planned.boots): each boot is seconds of CPU before its first model request. */
  readonly bootSlots: number;
  /** idle cores the machine must show before another boot (BootGate). */
  readonly bootIdleCores: number;
}

/**
 * The default limits, or with `--concurrency N` at most N at once. Busy attempts fill at most cores − 1: with every
 * core taken by busy loops (at 2 cores, a ts 0.5 run) idle attempts' start-up and compute starved — R at 0 % CPU for
 * a whole tick — and the baseline killed two healthy controls that a --concurrency 1 run let finish.
 */
export function admissionLimits(concurrency?: number, cores = availableParallelism()): AdmissionLimits {
  const cpuSlots = Math.max(1, cores - 1);
  if (concurrency !== undefined) {
    return {
      maxRunning: concurrency,
      cpuSlots: Math.min(concurrency, cpuSlots),
      startGapMs: concurrency > 1 ? DEFAULTS.startGapMs : 0,
      startupCores: Infinity,
      bootSlots: Math.min(concurrency, cores),
      bootIdleCores: DEFAULTS.bootIdleCores,
    };
  }
  // At 16 a core, a 2-core host runs 32 at once: the load `npm run bench` checks tick lateness at.
  return {
    maxRunning: DEFAULTS.idleAttemptsPerCore * cores,
    cpuSlots,
    startGapMs: DEFAULTS.startGapMs,
    startupCores: DEFAULTS.startupCpuShare * cores,
    // one boot a core: the CLIs run at the sandbox's lower priority, so the harness keeps its ticks on time beside them
    bootSlots: cores,
    bootIdleCores: DEFAULTS.bootIdleCores,
  };
}

/**
 * The line a run prints before its first attempt when the machine is too small for what was asked: how many attempts
 * the plan's unscaled work lets run at once (the median attempt's share of a core against the limit), if fewer than
 * the count alone would admit. With --concurrency above it, the warning that scores may then depend on the load.
 */
export function admissionNote(
  plan: readonly Pick<PlannedAttempt<SchedulableAttempt>, 'startupShare'>[],
  limits: AdmissionLimits,
  timeScale: number,
  cores = availableParallelism(),
  concurrency?: number,
): string | null {
  if (plan.length === 0) return null;
  const shares = plan.map((planned) => planned.startupShare).sort((a, b) => a - b);
  const median = shares[Math.floor(shares.length / 2)]!;
  const fits = Math.max(1, Math.floor((DEFAULTS.startupCpuShare * cores) / median));
  const wanted = Math.min(limits.maxRunning, plan.length);
  if (fits >= wanted) return null;
  const why = `each attempt's unscaled work (set-up and start-ups) fills about ${Math.round(median * 100)}% of a core at --time-scale ${timeScale}`;
  if (concurrency !== undefined)
    return `warning: --concurrency ${concurrency} on ${cores} cores: ${why}, so about ${fits} fit at once; more can make budgets and verify timeouts expire for want of CPU (scores then depend on the load)`;
  return `${why}: running about ${fits} attempts at once on ${cores} cores (not ${wanted}), so budgets and verify timeouts are not spent waiting for a CPU`;
}

/**
 * Runs the planned attempts in plan order as far as the limits allow: a heavy attempt waiting for CPU slots lets
 * the light ones behind it start. An attempt that boots (an agent CLI) starts only as BootGate allows and holds its
 * boot slot until its task calls `up` (the agent's first model request) or it ends. Results keep the plan's order; a
 * task that throws rejects the whole run. `idle` replaces the machine's /proc/stat for a test.
 */
export async function runScheduled<A extends SchedulableAttempt, R>(
  plan: readonly PlannedAttempt<A>[],
  limits: AdmissionLimits,
  task: (attempt: A, planned: PlannedAttempt<A>, up: () => void) => Promise<R>,
  idle?: IdleSource,
): Promise<R[]> {
  if (!(limits.maxRunning >= 1) || !(limits.cpuSlots >= 1))
    throw new RangeError(`concurrency must be at least 1, got ${limits.maxRunning} (CPU slots ${limits.cpuSlots})`);
  const results = new Array<R>(plan.length);
  const indexOf = new Map(plan.map((planned, index) => [planned, index]));
  const waiting = [...plan];
  let running = 0;
  let cpuInUse = 0;
  let startupInUse = 0;
  let boots: BootGate | null = null;
  const weightOf = (planned: PlannedAttempt<A>): number => Math.min(planned.cpuWeight, limits.cpuSlots);
  // One attempt always fits: a plan whose every attempt outweighs the limit still runs, one at a time.
  const fits = (planned: PlannedAttempt<A>): boolean =>
    cpuInUse + weightOf(planned) <= limits.cpuSlots &&
    (!planned.boots || boots!.allows(running)) &&
    (running === 0 || startupInUse + planned.startupShare <= limits.startupCores);
  let lastStart = -Infinity;
  let gapTimer: NodeJS.Timeout | null = null;
  return new Promise<R[]>((resolve, reject) => {
    let failed = false;
    const admit = (): void => {
      if (failed || gapTimer) return;
      if (waiting.length === 0 && running === 0) {
        boots?.close();
        return resolve(results);
      }
      while (running < limits.maxRunning) {
        const index = waiting.findIndex(fits);
        if (index < 0) return;
        const wait = lastStart + limits.startGapMs - performance.now();
        if (wait > 0) {
          gapTimer = setTimeout(() => {
            gapTimer = null;
            admit();
          }, wait);
          return;
        }
        const [planned] = waiting.splice(index, 1);
        start(planned!);
      }
    };
    const start = (planned: PlannedAttempt<A>): void => {
      running += 1;
      cpuInUse += weightOf(planned);
      startupInUse += planned.startupShare;
      lastStart = performance.now();
      const up = planned.boots ? boots!.take(admit) : () => undefined;
      task(planned.attempt, planned, up).then(
        (result) => {
          results[indexOf.get(planned)!] = result;
          running -= 1;
          cpuInUse -= weightOf(planned);
          startupInUse -= planned.startupShare;
          up();
          admit();
        },
        (error: unknown) => {
          failed = true;
          boots?.close();
          if (gapTimer) clearTimeout(gapTimer);
          reject(error);
        },
      );
    };
    boots = bootGateFor(plan, limits, () => waiting.some((planned) => planned.boots), admit, idle);
    admit();
  });
}

/** The gate of a plan that has agent CLIs to boot; a held-back boot is looked at again after each reading. */
function bootGateFor<A extends SchedulableAttempt>(
  plan: readonly PlannedAttempt<A>[],
  limits: AdmissionLimits,
  bootsWaiting: () => boolean,
  admit: () => void,
  idle?: IdleSource,
): BootGate | null {
  if (!plan.some((planned) => planned.boots)) return null;
  const onReading = (): void => {
    if (bootsWaiting()) admit();
  };
  return new BootGate(limits.bootSlots, limits.bootIdleCores, onReading, idle);
}
