import { mean } from '../../stats/index.js';
import type { AttemptScores } from '../../types/scores.js';

/** How much slower a change must be, on top of being beyond the noise, to count: 10 % of the base's mean latency. */
const LATENCY_FLOOR = 0.1;

export interface LatencyShift {
  /** cases with an interrupt latency in both runs. */
  readonly cases: number;
  readonly baseMeanMs: number;
  /** mean over those cases of (new mean − base mean). */
  readonly meanDeltaMs: number;
  /** standard error of that mean: from the spread of the repeats within each case, else from the spread of the deltas. */
  readonly noiseMs: number | null;
  readonly noiseFrom: 'repeats' | 'cases' | 'none';
  readonly regressed: boolean;
  /** the cases that slowed down most, for the message. */
  readonly slowest: ReadonlyArray<{ readonly caseId: string; readonly deltaMs: number }>;
}

function latenciesByCase(attempts: readonly AttemptScores[]): Map<string, number[]> {
  const byCase = new Map<string, number[]>();
  for (const attempt of attempts) {
    const latency = attempt.scores.interrupt_latency;
    if (attempt.kind !== 'hang' || latency === null) continue;
    byCase.set(attempt.caseId, [...(byCase.get(attempt.caseId) ?? []), latency]);
  }
  return byCase;
}

const variance = (values: readonly number[]): number => {
  const m = mean(values) ?? 0;
  return values.reduce((sum, value) => sum + (value - m) ** 2, 0) / (values.length - 1);
};

/**
 * Interrupt latency of one variant, base against new, paired over cases. Beyond the noise means the mean per-case
 * increase exceeds twice its standard error; the error comes from the pooled within-case variance of the repeats
 * (both runs), or, with one repeat, from the spread of the per-case deltas. Also needs the 10 % floor.
 */
export function latencyShift(base: readonly AttemptScores[], next: readonly AttemptScores[]): LatencyShift | null {
  const before = latenciesByCase(base);
  const after = latenciesByCase(next);
  const paired = [...before.keys()].filter((caseId) => after.has(caseId));
  if (paired.length === 0) return null;
  const deltas = paired.map((caseId) => ({ caseId, deltaMs: mean(after.get(caseId)!)! - mean(before.get(caseId)!)! }));
  const meanDeltaMs = mean(deltas.map((d) => d.deltaMs))!;
  const baseMeanMs = mean(paired.map((caseId) => mean(before.get(caseId)!)!))!;

  const groups = paired
    .flatMap((caseId) => [before.get(caseId)!, after.get(caseId)!])
    .filter((values) => values.length >= 2);
  const freedom = groups.reduce((sum, values) => sum + values.length - 1, 0);
  let noiseMs: number | null = null;
  let noiseFrom: LatencyShift['noiseFrom'] = 'none';
  if (freedom > 0) {
    const pooled = groups.reduce((sum, values) => sum + variance(values) * (values.length - 1), 0) / freedom;
    const perCase = paired.reduce(
      (sum, caseId) => sum + pooled * (1 / before.get(caseId)!.length + 1 / after.get(caseId)!.length),
      0,
    );
    noiseMs = Math.sqrt(perCase) / paired.length;
    noiseFrom = 'repeats';
  } else if (paired.length >= 2) {
    noiseMs = Math.sqrt(variance(deltas.map((d) => d.deltaMs)) / paired.length);
    noiseFrom = 'cases';
  }
  const regressed = noiseMs !== null && meanDeltaMs > 2 * noiseMs && meanDeltaMs > LATENCY_FLOOR * baseMeanMs;
  const slowest = [...deltas]
    .sort((a, b) => b.deltaMs - a.deltaMs)
    .filter((d) => d.deltaMs > 0)
    .slice(0, 3);
  return { cases: paired.length, baseMeanMs, meanDeltaMs, noiseMs, noiseFrom, regressed, slowest };
}
