import type { Case } from '../types/case.js';
import { cpuWeight, expectedDurationMs, type DurationHistory, type DurationVariant } from './expected-duration.js';

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
  readonly position: number;
}

/**
 * The start order: cases longest-expected first (so the tail of the run is short), and within a case its attempts
 * together, repeat by repeat, with the variants of each repeat in a seeded order — machine noise then favours no
 * variant, and the same seed gives the same order. Ties between cases are broken by the seed too.
 */
export function planAttempts<A extends SchedulableAttempt>(attempts: readonly A[], seed: number, timeScale: number, history?: DurationHistory): PlannedAttempt<A>[] {
  const byCase = new Map<string, A[]>();
  for (const attempt of attempts) byCase.set(attempt.testCase.id, [...(byCase.get(attempt.testCase.id) ?? []), attempt]);
  const random = mulberry32(seed);
  const cases = shuffle([...byCase.entries()], random).map(([caseId, group]) => ({
    caseId,
    group,
    expected: Math.max(...group.map((attempt) => expectedDurationMs(attempt.testCase, attempt.variant, timeScale, history))),
  }));
  // Array.prototype.sort is stable, so equal cases keep their shuffled order.
  cases.sort((a, b) => b.expected - a.expected);
  const ordered = cases.flatMap(({ group }) => {
    const repeats = [...new Set(group.map((attempt) => attempt.repeat))].sort((a, b) => a - b);
    return repeats.flatMap((repeat) => shuffle(group.filter((attempt) => attempt.repeat === repeat), random));
  });
  return ordered.map((attempt, position) => ({
    attempt,
    expectedMs: expectedDurationMs(attempt.testCase, attempt.variant, timeScale, history),
    cpuWeight: cpuWeight(attempt.testCase),
    position,
  }));
}

/** A small seeded generator (mulberry32): uniform in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other]!, items[index]!];
  }
  return items;
}

/** A 32-bit seed from a string (FNV-1a), for a run that was given no seed: its run id. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}
