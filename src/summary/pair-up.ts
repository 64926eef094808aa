import type { AttemptScores } from '../types/scores.js';

export type Pair = readonly [AttemptScores, AttemptScores];

const pairKey = (attempt: AttemptScores): string => JSON.stringify([attempt.caseId, attempt.repeat]);

/**
 * The attempts both sides ran for the same (caseId, repeat), in the order of `a`. Each key pairs once: should a side
 * hold two attempts with one key, the first of each is used, so no attempt is counted in two pairs (a paired test
 * assumes each pair is its own unit).
 */
export function pairUp(a: readonly AttemptScores[], b: readonly AttemptScores[]): Pair[] {
  const byKey = new Map<string, AttemptScores>();
  for (const attempt of b) if (!byKey.has(pairKey(attempt))) byKey.set(pairKey(attempt), attempt);
  const seen = new Set<string>();
  const pairs: Pair[] = [];
  for (const left of a) {
    const key = pairKey(left);
    const right = byKey.get(key);
    if (!right || seen.has(key)) continue;
    seen.add(key);
    pairs.push([left, right]);
  }
  return pairs;
}
