import {
  DEFAULT_BOOTSTRAP,
  hashString,
  mcnemarExact,
  medianDifference,
  newcombePaired,
  pairedCounts,
} from '../../stats/index.js';
import { HangbenchError } from '../../types/errors.js';
import type { AttemptScores } from '../../types/scores.js';
import { latencyShift, type LatencyShift } from './compare-latency.js';
import type { ReportSummary } from '../stats-view.js';
import { rate } from '../../summary/index.js';
import type { Rate } from '../../summary/index.js';
import { countsOver, RATE_METRICS, type ComparedRate } from '../../summary/index.js';
import { pairUp, type Pair } from '../../summary/index.js';
import type { Over } from '../../summary/index.js';

/** The rates `compare` sets side by side per variant; a lower-is-better one regresses when its interval moves wholly above. */
const RATES = RATE_METRICS.filter((metric) => metric.betweenRuns);

/** A rate of the same variant, new − base, on the attempts both runs have for one (caseId, repeat). */
export interface PairedRateChange {
  readonly pairs: number;
  /** discordant pairs: true in base only, true in new only */
  readonly baseOnly: number;
  readonly newOnly: number;
  /** new rate − base rate over the pairs, with Newcombe's 95 % interval; McNemar's exact p */
  readonly difference: number;
  readonly low: number;
  readonly high: number;
  readonly p: number;
}

export interface RateDelta {
  readonly name: string;
  /** the attempts the rate counts over */
  readonly over: Over;
  readonly base: Rate;
  readonly next: Rate;
  /** which way is better */
  readonly direction: 'higher' | 'lower';
  readonly regressed: boolean;
  /** null when no (caseId, repeat) has the rate in both runs */
  readonly paired: PairedRateChange | null;
}

export interface CaseDelta {
  readonly caseId: string;
  readonly variant: string;
  readonly base: { readonly solved: number; readonly total: number };
  readonly next: { readonly solved: number; readonly total: number };
  readonly regressed: boolean;
  readonly improved: boolean;
}

export interface VariantDelta {
  readonly variant: string;
  readonly rates: readonly RateDelta[];
  readonly latency: LatencyShift | null;
  /** interrupt latency new − base on the attempts where both interrupted: median with its bootstrap interval */
  readonly latencyPaired: {
    readonly pairs: number;
    readonly median: number;
    readonly low: number;
    readonly high: number;
  } | null;
}

export interface Regression {
  readonly kind: 'case' | 'rate' | 'latency';
  readonly variant: string;
  readonly caseId?: string;
  readonly message: string;
}

export interface Comparison {
  readonly base: string;
  readonly next: string;
  readonly variants: readonly VariantDelta[];
  /** only cases whose solved count changed. */
  readonly cases: readonly CaseDelta[];
  readonly regressions: readonly Regression[];
  readonly onlyInBase: readonly string[];
  readonly onlyInNew: readonly string[];
  readonly variantsOnlyInOne: readonly string[];
  /** set when each run had one variant, named differently, and the two were compared with each other. */
  readonly paired: string | null;
}

const pct = (value: number | null): string => (value === null ? '–' : `${Math.round(value * 100)}%`);
const caseIds = (summary: ReportSummary): Set<string> => new Set(summary.attempts.map((attempt) => attempt.caseId));

function rateOf(attempts: readonly AttemptScores[], spec: ComparedRate): Rate {
  return rate(
    attempts.filter((attempt) => countsOver(spec.over, attempt)),
    spec.metric,
  );
}

function pairedRate(pairs: readonly Pair[], spec: ComparedRate): PairedRateChange | null {
  const counts = pairedCounts(pairs.map(([before, after]) => [spec.value(after), spec.value(before)] as const));
  const interval = newcombePaired(counts);
  if (!interval) return null;
  const pairCount = counts.both + counts.aOnly + counts.bOnly + counts.neither;
  return {
    pairs: pairCount,
    baseOnly: counts.bOnly,
    newOnly: counts.aOnly,
    ...interval,
    p: mcnemarExact(counts.aOnly, counts.bOnly).p,
  };
}

function pairedLatency(pairs: readonly Pair[], variant: string): VariantDelta['latencyPaired'] {
  const values = pairs.flatMap(([before, after]): Array<readonly [number, number]> => {
    const [x, y] = [after.scores.interrupt_latency, before.scores.interrupt_latency];
    return x === null || y === null ? [] : [[x, y]];
  });
  const effect = medianDifference(values, { ...DEFAULT_BOOTSTRAP, seed: hashString(`compare:${variant}`) });
  return effect ? { pairs: values.length, ...effect } : null;
}

function wholly(base: Rate, next: Rate, lowerIsBetter: boolean): boolean {
  if (base.low === null || base.high === null || next.low === null || next.high === null) return false;
  return lowerIsBetter ? next.low > base.high : next.high < base.low;
}

function caseDelta(
  caseId: string,
  variant: string,
  base: readonly AttemptScores[],
  next: readonly AttemptScores[],
): CaseDelta {
  const count = (list: readonly AttemptScores[]) => ({
    solved: list.filter((a) => a.scores.solved).length,
    total: list.length,
  });
  const b = count(base);
  const n = count(next);
  // solved in base and failed now: every base attempt solved and one now fails, or some solved and now none
  const regressed =
    n.total > 0 && ((b.total > 0 && b.solved === b.total && n.solved < n.total) || (b.solved > 0 && n.solved === 0));
  const improved = !regressed && b.total > 0 && n.total > 0 && n.solved / n.total > b.solved / b.total;
  return { caseId, variant, base: b, next: n, regressed, improved };
}

/**
 * Two runs side by side: per variant (matched by name) each rate, per case its solved count, and the regressions.
 * Refuses another summary version, and another case set unless allowed (then only the shared cases count).
 */
export function compareSummaries(
  base: ReportSummary,
  next: ReportSummary,
  { allowDifferentCases = false } = {},
): Comparison {
  requireSameVersion(base, next);
  const { baseCases, newCases, onlyInBase, onlyInNew } = caseSets(base, next, allowDifferentCases);
  const shared = (summary: ReportSummary) =>
    summary.attempts.filter((attempt) => baseCases.has(attempt.caseId) && newCases.has(attempt.caseId));
  const baseAttempts = shared(base);
  const { newAttempts, baseVariants, newVariants, paired } = matchVariants(baseAttempts, shared(next));
  const variantsOnlyInOne = [
    ...baseVariants.filter((v) => !newVariants.has(v)),
    ...[...newVariants].filter((v) => !baseVariants.includes(v)),
  ];
  const regressions: Regression[] = [];
  const variants: VariantDelta[] = [];
  const cases: CaseDelta[] = [];
  for (const variant of baseVariants.filter((v) => newVariants.has(v))) {
    const compared = compareVariant(
      variant,
      baseAttempts.filter((a) => a.variant === variant),
      newAttempts.filter((a) => a.variant === variant),
    );
    variants.push(compared.delta);
    cases.push(...compared.cases);
    regressions.push(...compared.regressions);
  }
  return {
    base: base.runId,
    next: next.runId,
    paired,
    variants,
    cases,
    regressions,
    onlyInBase,
    onlyInNew,
    variantsOnlyInOne,
  };
}

function requireSameVersion(base: ReportSummary, next: ReportSummary): void {
  if (base.summaryVersion !== next.summaryVersion) {
    throw new HangbenchError(
      'RUN_FOLDER',
      `the runs have different summary versions (${base.summaryVersion} and ${next.summaryVersion}); re-render both with one hangbench (hangbench report <run-dir>)`,
    );
  }
}

/** The case ids of each run and those only one ran; refuses runs of different cases unless `allowDifferentCases`. */
function caseSets(base: ReportSummary, next: ReportSummary, allowDifferentCases: boolean) {
  const baseCases = caseIds(base);
  const newCases = caseIds(next);
  const onlyInBase = [...baseCases].filter((id) => !newCases.has(id)).sort();
  const onlyInNew = [...newCases].filter((id) => !baseCases.has(id)).sort();
  if (!allowDifferentCases && (onlyInBase.length > 0 || onlyInNew.length > 0)) {
    const list = (ids: readonly string[]) =>
      ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
    throw new HangbenchError(
      'RUN_FOLDER',
      `the runs ran different cases (${[onlyInBase.length > 0 ? `only in base: ${list(onlyInBase)}` : '', onlyInNew.length > 0 ? `only in new: ${list(onlyInNew)}` : ''].filter(Boolean).join('; ')}); pass --allow-different-cases to compare the cases both ran`,
    );
  }
  return { baseCases, newCases, onlyInBase, onlyInNew };
}

/**
 * The variants of each run. With none in common but one each, the new one is renamed to the base's and `paired` says
 * so; with none in common otherwise, refuses.
 */
function matchVariants(baseAttempts: readonly AttemptScores[], newAttempts: readonly AttemptScores[]) {
  const baseVariants = [...new Set(baseAttempts.map((a) => a.variant))];
  const newVariants = new Set(newAttempts.map((a) => a.variant));
  if (baseVariants.some((v) => newVariants.has(v))) return { newAttempts, baseVariants, newVariants, paired: null };
  const [only] = baseVariants;
  const [other] = [...newVariants];
  if (baseVariants.length !== 1 || newVariants.size !== 1 || only === undefined || other === undefined) {
    throw new HangbenchError(
      'RUN_FOLDER',
      `the runs have no variant in common (base: ${baseVariants.join(', ')}; new: ${[...newVariants].join(', ')}); compare runs of the same variants`,
    );
  }
  // one variant each, named differently (another agent or interval): compare the two, under the base's name
  return {
    newAttempts: newAttempts.map((attempt) => ({ ...attempt, variant: only })),
    baseVariants,
    newVariants: new Set([only]),
    paired: `${other} (new) against ${only} (base)`,
  };
}

/** One variant in both runs: its rates and latency, the cases whose solved count changed, and its regressions in order. */
function compareVariant(
  variant: string,
  b: readonly AttemptScores[],
  n: readonly AttemptScores[],
): { delta: VariantDelta; cases: CaseDelta[]; regressions: Regression[] } {
  const pairs = pairUp(b, n);
  const rates = rateDeltas(b, n, pairs);
  const regressions: Regression[] = rates
    .filter((d) => d.regressed)
    .map((delta) => ({
      kind: 'rate',
      variant,
      message: `${variant}: ${delta.name} ${pct(delta.base.rate)} [${pct(delta.base.low)}–${pct(delta.base.high)}] → ${pct(delta.next.rate)} [${pct(delta.next.low)}–${pct(delta.next.high)}], the interval moved wholly ${delta.direction === 'lower' ? 'above' : 'below'}`,
    }));
  const latency = latencyShift(b, n);
  if (latency?.regressed) {
    const slowest = latency.slowest.map((s) => `${s.caseId} +${Math.round(s.deltaMs)}ms`).join(', ');
    regressions.push({
      kind: 'latency',
      variant,
      message: `${variant}: interrupt latency up ${Math.round(latency.meanDeltaMs)} ms per case over ${latency.cases} cases (noise ±${Math.round(latency.noiseMs ?? 0)} ms from the ${latency.noiseFrom}); slowest: ${slowest}`,
    });
  }
  const delta = { variant, rates, latency, latencyPaired: pairedLatency(pairs, variant) };
  const cases: CaseDelta[] = [];
  for (const caseId of [...new Set(b.map((a) => a.caseId))]) {
    const change = caseDelta(
      caseId,
      variant,
      b.filter((a) => a.caseId === caseId),
      n.filter((a) => a.caseId === caseId),
    );
    if (change.base.solved !== change.next.solved || change.base.total !== change.next.total) cases.push(change);
    if (change.regressed)
      regressions.push({
        kind: 'case',
        variant,
        caseId,
        message: `${caseId} (${variant}): solved ${change.base.solved}/${change.base.total} in base, ${change.next.solved}/${change.next.total} now`,
      });
  }
  return { delta, cases, regressions };
}

/** Each compared rate that either run counts, base against new, regressed when its interval moved wholly the wrong way. */
function rateDeltas(b: readonly AttemptScores[], n: readonly AttemptScores[], pairs: readonly Pair[]): RateDelta[] {
  return RATES.map((spec) => {
    const delta = {
      name: spec.metric,
      over: spec.over,
      direction: spec.direction,
      base: rateOf(b, spec),
      next: rateOf(n, spec),
      paired: pairedRate(pairs, spec),
    };
    return { ...delta, regressed: wholly(delta.base, delta.next, spec.direction === 'lower') };
  }).filter((delta) => delta.base.total > 0 || delta.next.total > 0);
}
