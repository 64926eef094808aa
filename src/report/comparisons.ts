import { holm, mcnemarExact, percentile, wilcoxonSignedRank } from '../stats/index.js';
import type { AttemptScores } from '../types/scores.js';
import type { Comparison } from './summary-schema.js';

const pairKey = (attempt: AttemptScores): string => JSON.stringify([attempt.caseId, attempt.repeat]);

/**
 * Paired tests between every two variants (given as groups of attempts, in display order) on the attempts both ran
 * for the same (caseId, repeat): McNemar's exact test on solved, Wilcoxon signed-rank on interrupt latency,
 * each family Holm-corrected. Should a variant hold two attempts with one key, the first is used.
 */
export function compareVariants(groups: ReadonlyArray<readonly AttemptScores[]>): Comparison[] {
  const raw: Comparison[] = [];
  groups.forEach((a, i) => {
    groups.slice(i + 1).forEach((b) => raw.push(comparePair(a, b)));
  });
  const solvedAdjusted = holm(raw.map((comparison) => comparison.solved.p));
  const latencyAdjusted = holm(raw.map((comparison) => comparison.latency?.p ?? null));
  return raw.map((comparison, index) => ({
    ...comparison,
    solved: { ...comparison.solved, pAdjusted: solvedAdjusted[index] ?? null },
    latency: comparison.latency && { ...comparison.latency, pAdjusted: latencyAdjusted[index] ?? comparison.latency.p },
  }));
}

function comparePair(a: readonly AttemptScores[], b: readonly AttemptScores[]): Comparison {
  const byKey = new Map<string, AttemptScores>();
  for (const attempt of b) if (!byKey.has(pairKey(attempt))) byKey.set(pairKey(attempt), attempt);
  const seen = new Set<string>();
  const tally = { pairs: 0, both: 0, neither: 0, aOnly: 0, bOnly: 0 };
  const latencies: Array<readonly [number, number]> = [];
  for (const left of a) {
    const key = pairKey(left);
    const right = byKey.get(key);
    if (!right || seen.has(key)) continue;
    seen.add(key);
    tally.pairs += 1;
    const [solvedA, solvedB] = [left.scores.solved, right.scores.solved];
    if (solvedA && solvedB) tally.both += 1;
    else if (solvedA) tally.aOnly += 1;
    else if (solvedB) tally.bOnly += 1;
    else tally.neither += 1;
    const [latencyA, latencyB] = [left.scores.interrupt_latency, right.scores.interrupt_latency];
    if (latencyA !== null && latencyB !== null) latencies.push([latencyA, latencyB]);
  }
  const [first] = a as [AttemptScores];
  const [second] = b as [AttemptScores];
  return {
    a: first.variant,
    b: second.variant,
    pairs: tally.pairs,
    solved: {
      test: 'mcnemar-exact',
      ...tally,
      p: tally.pairs === 0 ? null : mcnemarExact(tally.aOnly, tally.bOnly).p,
      pAdjusted: null,
    },
    latency: latencyTest(latencies),
  };
}

function latencyTest(pairs: ReadonlyArray<readonly [number, number]>): Comparison['latency'] {
  if (pairs.length === 0) return null;
  const result = wilcoxonSignedRank(pairs);
  return {
    test: result.test,
    method: result.method,
    pairs: pairs.length,
    zeros: result.zeros,
    statistic: result.statistic,
    medianDifferenceMs: percentile(pairs.map(([a, b]) => a - b), 50) as number,
    p: result.p,
    pAdjusted: result.p,
  };
}
