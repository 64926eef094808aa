import { DASH, duration, paint } from './format.js';
import type { Comparison, RunSummary } from '../summary/schema.js';
import { newTable, tableToString } from './table-style.js';
import type { RenderOptions } from './table.js';

/** The level a difference is called at, after Holm. */
const ALPHA = 0.05;

/** `0.039`, `<0.001`, or – when the test could not be run. */
export function pValue(p: number | null): string {
  if (p === null) return DASH;
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** Which of the two the test favours at ALPHA (after Holm): 'a', 'b', or – when the difference is not significant. */
function favoured(p: number | null, aBetter: boolean, bBetter: boolean): 'a' | 'b' | typeof DASH {
  if (p === null || p >= ALPHA) return DASH;
  return aBetter ? 'a' : bBetter ? 'b' : DASH;
}

function row(comparison: Comparison, holmed: boolean, color: boolean): string[] {
  const { solved, latency } = comparison;
  const solvedP = holmed ? solved.pAdjusted : solved.p;
  const moreSolved = favoured(solvedP, solved.aOnly > solved.bOnly, solved.bOnly > solved.aOnly);
  const ranked = latency ? latency.pairs - latency.zeros : 0;
  // V above its null mean n(n+1)/4 means a was the slower one
  const aSlower = latency !== null && latency.statistic > (ranked * (ranked + 1)) / 4;
  const aFaster = latency !== null && latency.statistic < (ranked * (ranked + 1)) / 4;
  const faster = latency ? favoured(holmed ? latency.pAdjusted : latency.p, aFaster, aSlower) : DASH;
  const strong = (text: string, p: number | null): string => (p !== null && p < ALPHA ? paint(text, 'bold', color) : text);
  // with Holm, `raw (adjusted)`; the verdict columns use the adjusted one
  const withHolm = (p: number | null, adjusted: number | null): string =>
    holmed ? `${pValue(p)} (${strong(pValue(adjusted), adjusted)})` : strong(pValue(p), p);
  return [
    comparison.a,
    comparison.b,
    String(comparison.pairs),
    `${solved.aOnly}/${solved.bOnly}`,
    withHolm(solved.p, solved.pAdjusted),
    moreSolved,
    latency ? String(latency.pairs) : '0',
    latency ? `${latency.medianDifferenceMs < 0 ? '−' : ''}${duration(Math.abs(latency.medianDifferenceMs))}` : DASH,
    latency ? String(latency.statistic) : DASH,
    latency?.method ?? DASH,
    latency ? withHolm(latency.p, latency.pAdjusted) : DASH,
    faster,
  ];
}

/**
 * Every two variants paired on (case, repeat): McNemar's exact test on solved, Wilcoxon signed-rank on interrupt
 * latency, with Holm-adjusted p-values once there is more than one pair of variants. Empty for one variant.
 */
export function renderPairwiseTable(summary: Pick<RunSummary, 'comparisons'>, { color }: RenderOptions = { color: false }): string {
  const { comparisons } = summary;
  if (comparisons.length === 0) return '';
  const holmed = comparisons.length > 1;
  const suffix = holmed ? ' (Holm)' : '';
  const heads = ['a', 'b', 'pairs', 'only a/b', `McNemar p${suffix}`, 'solves more', 'lat. pairs', 'a−b p50', 'V', 'method', `Wilcoxon p${suffix}`, 'faster'];
  const left = new Set(['a', 'b', 'method']);
  const centre = new Set(['solves more', 'faster']);
  const table = newTable(
    heads.map((head) => paint(head, 'bold', color)),
    heads.map((head) => (left.has(head) ? 'left' : centre.has(head) ? 'center' : 'right')),
  );
  for (const comparison of comparisons) table.push(row(comparison, holmed, color));
  const correction = holmed ? `(Holm): corrected over the ${comparisons.length} pairs of variants per test` : 'one pair of variants: no correction';
  return [
    tableToString(table),
    paint('paired on (case, repeat), two-sided · solved: McNemar exact on the discordant pairs · latency: Wilcoxon signed-rank, V = rank sum where a was slower', 'dim', color),
    paint(`${correction} · solves more / faster: significant at α = ${ALPHA}`, 'dim', color),
  ].join('\n');
}
