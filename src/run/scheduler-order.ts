import { mulberry32 } from '../stats/index.js';
import type { Case } from '../types/case.js';
import { isInstalledAgent } from '../types/variant.js';
import {
  cpuWeight,
  expectedDurationMs,
  startupCpuMs,
  type DurationHistory,
  type DurationVariant,
} from './expected-duration.js';

export interface SchedulableAttempt {
  readonly testCase: Case;
  readonly variant: DurationVariant;
  readonly repeat: number;
}

/** One attempt with what the scheduler decided about it; `position` is its place in the start order. */
export interface PlannedAttempt<A extends SchedulableAttempt> {
  readonly attempt: A;
  readonly expectedMs: number;
  /** cores it keeps busy (0 for an attempt that mostly waits); see cpuWeight. */
  readonly cpuWeight: number;
  /** the share of a core its unscaled work takes over its expected duration (startupCpuMs / expectedMs). */
  readonly startupShare: number;
  /** an installed agent CLI that boots before its first model request: it takes a boot slot until then (scheduler.ts). */
  readonly boots: boolean;
  readonly position: number;
}

/**
 * The start order: cases that keep a core busy (cpuWeight) first, then the others, each part longest-expected first
 * (so the tail of the run is short), and within a case its attempts
 * together, repeat by repeat, with the variants of each repeat in a seeded order — machine noise then favours no
 * variant, and the same seed gives the same order. Ties between cases are broken by the seed too.
 */
export function planAttempts<A extends SchedulableAttempt>(
  attempts: readonly A[],
  seed: number,
  timeScale: number,
  history?: DurationHistory,
): PlannedAttempt<A>[] {
  const byCase = new Map<string, A[]>();
  for (const attempt of attempts)
    byCase.set(attempt.testCase.id, [...(byCase.get(attempt.testCase.id) ?? []), attempt]);
  const random = mulberry32(seed);
  const cases = shuffle([...byCase.entries()], random).map(([caseId, group]) => ({
    caseId,
    group,
    expected: Math.max(
      ...group.map((attempt) => expectedDurationMs(attempt.testCase, attempt.variant, timeScale, history)),
    ),
    heavy: cpuWeight(group[0]!.testCase) > 0,
  }));
  // The busy attempts share the few CPU slots one after another (scheduler.ts): started last, that chain is the run's
  // tail (the 7-CLI matrix ran its ctl-quiet-optimizer attempts alone at the end). Started first, the idle ones fill
  // in beside it. Array.prototype.sort is stable, so equal cases keep their shuffled order.
  cases.sort((a, b) => Number(b.heavy) - Number(a.heavy) || b.expected - a.expected);
  const ordered = cases.flatMap(({ group }) => {
    const repeats = [...new Set(group.map((attempt) => attempt.repeat))].sort((a, b) => a - b);
    return repeats.flatMap((repeat) =>
      shuffle(
        group.filter((attempt) => attempt.repeat === repeat),
        random,
      ),
    );
  });
  return ordered.map((attempt, position) => {
    const expectedMs = expectedDurationMs(attempt.testCase, attempt.variant, timeScale, history);
    return {
      attempt,
      expectedMs,
      cpuWeight: cpuWeight(attempt.testCase),
      startupShare: startupCpuMs(attempt.testCase, attempt.variant) / expectedMs,
      boots: agentBoots(attempt.variant),
      position,
    };
  });
}

function agentBoots(variant: DurationVariant): boolean {
  return isInstalledAgent(typeof variant.agent === 'string' ? variant.agent : variant.agent.agent);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other]!, items[index]!];
  }
  return items;
}
