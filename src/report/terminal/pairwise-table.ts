import { ALPHA } from '../../summary/index.js';
import type { MetricComparison, RateEffect, ShiftEffect } from '../../summary/index.js';
import type { RunSummary } from '../../summary/index.js';
import {
  agreesEverywhere,
  agreesEverywhereText,
  effectText,
  familyNote,
  familyTitle,
  hasPairs,
  pText,
  verdictText,
} from '../effects.js';
import { paint } from '../format.js';
import { newTable, tableToString } from './table-style.js';
import type { RenderOptions } from './table.js';

export { ALPHA };
/** `0.039`, `<0.001`, or – when the test could not be run. */
export const pValue = pText;

function cells(family: MetricComparison, row: RateEffect | ShiftEffect, holmed: boolean, color: boolean): string[] {
  const strong = (text: string, p: number | null): string =>
    p !== null && p < ALPHA ? paint(text, 'bold', color) : text;
  // with Holm, `raw (adjusted)`; the verdict uses the adjusted one
  const p = holmed ? `${pText(row.p)} (${strong(pText(row.pAdjusted), row.pAdjusted)})` : strong(pText(row.p), row.p);
  const verdict =
    row.better === null
      ? paint(verdictText(family, row), 'dim', color)
      : paint(verdictText(family, row), 'green', color);
  const detail =
    family.test === 'mcnemar-exact'
      ? `${(row as RateEffect).aOnly}/${(row as RateEffect).bOnly}`
      : (row as ShiftEffect).statistic === null
        ? '–'
        : String((row as ShiftEffect).statistic);
  return [row.a, row.b, String(row.pairs), detail, effectText(family, row), p, verdict];
}

/** One metric: every two variants, the effect a − b with its interval, the test, and the better variant. */
function familyTable(family: MetricComparison, color: boolean): string {
  if (agreesEverywhere(family)) return `${paint(familyTitle(family), 'bold', color)}\n${agreesEverywhereText(family)}`;
  const holmed = family.rows.length > 1;
  const suffix = holmed ? ' (Holm)' : '';
  const rate = family.test === 'mcnemar-exact';
  const heads = [
    'a',
    'b',
    'pairs',
    rate ? 'only a/b' : 'V',
    'a − b [95% CI]',
    `${rate ? 'McNemar' : 'Wilcoxon'} p${suffix}`,
    'better',
  ];
  const table = newTable(
    heads.map((head) => paint(head, 'bold', color)),
    ['left', 'left', 'right', 'right', 'right', 'right', 'left'],
  );
  for (const row of family.rows) table.push(cells(family, row, holmed, color));
  return [
    paint(familyTitle(family), 'bold', color),
    tableToString(table),
    paint(familyNote(family), 'dim', color),
  ].join('\n');
}

/**
 * One table per compared metric (interrupted, false kills, latency, solved, fixed, tokens), each over every two variants
 * paired on (case, repeat), Holm-corrected within the metric once there is more than one pair of variants. Metrics no
 * pair has data for are left out; empty for one variant.
 */
export function renderPairwiseTable(
  summary: Pick<RunSummary, 'comparisons'>,
  { color }: RenderOptions = { color: false },
): string {
  const families = summary.comparisons.filter(hasPairs);
  if (families.length === 0) return '';
  const pairs = families[0]?.rows.length ?? 0;
  const correction =
    pairs > 1
      ? `(Holm): corrected over the ${pairs} pairs of variants within each metric`
      : 'one pair of variants: no correction';
  return [
    ...families.map((family) => familyTable(family, color)),
    paint(
      `paired on (case, repeat), two-sided · ${correction} · better: named when p${pairs > 1 ? ' (Holm)' : ''} < ${ALPHA}`,
      'dim',
      color,
    ),
  ].join('\n\n');
}
