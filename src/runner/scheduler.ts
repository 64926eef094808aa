import { availableParallelism } from 'node:os';
import type { PlannedAttempt, SchedulableAttempt } from './scheduler-order.js';

/**
 * How many attempts may run at once. Most attempts sit idle beside a hung program, so the cap is far above the
 * core count; the few that keep a core busy (cpuHeavy) get one CPU slot each, so they never outnumber the cores.
 */
export interface AdmissionLimits {
  readonly maxRunning: number;
  readonly cpuSlots: number;
  /** ms between two starts: sandbox set-up and program start-up are CPU bursts that would otherwise all coincide. */
  readonly startGapMs: number;
}

/** Idle attempts per core: at 16 a 2-core host runs 32 at once, the load `npm run bench` checks tick lateness at. */
const IDLE_PER_CORE = 16;
const START_GAP_MS = 100;

/** The default limits, or with `--concurrency N`: at most N at once, and no more CPU-heavy ones than cores. */
export function admissionLimits(concurrency?: number, cores = availableParallelism()): AdmissionLimits {
  if (concurrency !== undefined) return { maxRunning: concurrency, cpuSlots: Math.min(concurrency, cores), startGapMs: concurrency > 1 ? START_GAP_MS : 0 };
  return { maxRunning: IDLE_PER_CORE * cores, cpuSlots: cores, startGapMs: START_GAP_MS };
}

/**
 * Runs the planned attempts in plan order as far as the limits allow: a heavy attempt waiting for a CPU slot lets
 * the light ones behind it start. Results keep the plan's order; a task that throws rejects the whole run.
 */
export async function runScheduled<A extends SchedulableAttempt, R>(
  plan: readonly PlannedAttempt<A>[],
  limits: AdmissionLimits,
  task: (attempt: A, planned: PlannedAttempt<A>) => Promise<R>,
): Promise<R[]> {
  if (!(limits.maxRunning >= 1) || !(limits.cpuSlots >= 1)) throw new RangeError(`concurrency must be at least 1, got ${limits.maxRunning} (CPU slots ${limits.cpuSlots})`);
  const results = new Array<R>(plan.length);
  const indexOf = new Map(plan.map((planned, index) => [planned, index]));
  const waiting = [...plan];
  let running = 0;
  let heavyRunning = 0;
  let lastStart = -Infinity;
  let gapTimer: NodeJS.Timeout | null = null;
  return new Promise<R[]>((resolve, reject) => {
    let failed = false;
    const admit = (): void => {
      if (failed || gapTimer) return;
      if (waiting.length === 0 && running === 0) return resolve(results);
      while (running < limits.maxRunning) {
        const index = waiting.findIndex((planned) => !planned.cpuHeavy || heavyRunning < limits.cpuSlots);
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
      if (planned.cpuHeavy) heavyRunning += 1;
      lastStart = performance.now();
      task(planned.attempt, planned).then(
        (result) => {
          results[indexOf.get(planned)!] = result;
          running -= 1;
          if (planned.cpuHeavy) heavyRunning -= 1;
          admit();
        },
        (error: unknown) => {
          failed = true;
          if (gapTimer) clearTimeout(gapTimer);
          reject(error);
        },
      );
    };
    admit();
  });
}
