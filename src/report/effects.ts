import { formatDuration } from '../types/duration.js';
import type { MetricComparison, Over, RateEffect, ShiftEffect } from '../summary/index.js';
import { DASH } from './format.js';

/** Words shared by every renderer of the per-metric comparisons, so the terminal, report.md and report.html agree. */

const NO_DIFFERENCE = 'no difference shown';
const MDE_NOTE = 'no difference ≥ x: the smallest this run could have shown, at 80 % power and α 0.05 over the rows';

const OVER: Record<Over, string> = {
  all: 'all attempts',
  hangs: 'hangs',
  controls: 'controls',
  'hangs-with-culprit': 'hangs with a culprit',
};
const METRIC: Record<string, string> = {
  interrupted: 'interrupted',
  false_kill: 'false kills',
  interrupt_latency: 'interrupt latency',
  solved: 'solved',
  fixed: 'fixed',
  diagnosed: 'diagnosed',
  tokens: 'tokens per attempt',
};

/** `interrupted (hangs)`, `interrupt latency (hangs both interrupted)`: the metric and what it counts over. */
export function familyTitle(family: MetricComparison): string {
  const name = METRIC[family.metric] ?? family.metric.replace(/_/g, ' ');
  const where = family.metric === 'interrupt_latency' ? 'hangs both interrupted' : OVER[family.over];
  return `${name} (${where})`;
}

/** `higher is better`, with the test and the effect's interval. */
export function familyNote(family: MetricComparison): string {
  return family.test === 'mcnemar-exact'
    ? `${family.direction} is better · a − b: difference of the rates, 95 % Newcombe interval · McNemar exact on the discordant pairs · ${MDE_NOTE}`
    : `${family.direction} is better · a − b: median of the paired differences, 95 % bootstrap interval · Wilcoxon signed-rank · ${MDE_NOTE}`;
}

/** Every pair of variants agrees on every paired attempt: the family is one sentence, not a table of zeros. */
export function agreesEverywhere(family: MetricComparison): boolean {
  const rows = family.rows.filter((row) => row.pairs > 0);
  return family.test === 'mcnemar-exact'
    ? (rows as RateEffect[]).every((row) => row.aOnly === 0 && row.bOnly === 0)
    : (rows as ShiftEffect[]).every((row) => row.zeros === row.pairs);
}

export function agreesEverywhereText(family: MetricComparison): string {
  const pairs = family.rows.filter((row) => row.pairs > 0).length;
  return `${pairs === 1 ? 'the two variants agree' : `all ${pairs} pairs of variants agree`} on every attempt both ran: no difference shown`;
}

/** A family is shown once some pair of variants has something to compare on it. */
export const hasPairs = (family: MetricComparison): boolean => family.rows.some((row) => row.pairs > 0);

const signed = (value: number, text: (magnitude: number) => string): string =>
  value === 0 ? text(0) : `${value < 0 ? '−' : '+'}${text(Math.abs(value))}`;
const points = (value: number): string => signed(Math.round(value * 100), (magnitude) => `${magnitude}`);

/** `−58 pt [−80, −25]`: the difference of two rates in percentage points, with its interval. */
function rateEffectText(row: RateEffect): string {
  if (row.difference === null || row.low === null || row.high === null) return DASH;
  return `${points(row.difference)} pt [${points(row.low)}, ${points(row.high)}]`;
}

/** `+490ms [−80ms, +620ms]` or `+120 [0, +300]` tokens. */
function shiftEffectText(row: ShiftEffect, unit: 'ms' | 'tokens'): string {
  if (row.medianDifference === null || row.low === null || row.high === null) return DASH;
  const amount = (value: number): string =>
    signed(value, (magnitude) => (unit === 'ms' ? formatDuration(magnitude) : String(Math.round(magnitude))));
  return `${amount(row.medianDifference)} [${amount(row.low)}, ${amount(row.high)}]`;
}

export function effectText(family: MetricComparison, row: RateEffect | ShiftEffect): string {
  return family.test === 'mcnemar-exact'
    ? rateEffectText(row as RateEffect)
    : shiftEffectText(row as ShiftEffect, family.unit);
}

/** `18 pt`, `1.2s`, `140 tokens`: a row's minimum detectable effect; null when it has none. */
export function mdeText(family: MetricComparison, row: RateEffect | ShiftEffect): string | null {
  if (row.mde === null) return null;
  if (family.test === 'mcnemar-exact') return `${Math.ceil(row.mde * 100)} pt`;
  return family.unit === 'ms' ? formatDuration(Math.ceil(row.mde)) : `${Math.ceil(row.mde)} tokens`;
}

/**
 * The variant a significant difference favours, or that none was shown — and what size of difference this run could
 * have shown at 80 % power: `no difference ≥ 18 pt shown`, or that no difference could have been with so few pairs.
 */
export function verdictText(family: MetricComparison, row: RateEffect | ShiftEffect): string {
  if (row.pairs === 0) return DASH;
  if (row.better !== null) return row.better;
  const mde = mdeText(family, row);
  return mde === null ? `${NO_DIFFERENCE} (too few pairs to show any)` : `no difference ≥ ${mde} shown`;
}

/** `0.039`, `<0.001`, or – when the test could not be run. */
export function pText(p: number | null): string {
  if (p === null) return DASH;
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}
