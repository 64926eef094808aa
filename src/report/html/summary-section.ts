import { fraction, percentWithInterval } from '../format.js';
import {
  agreesEverywhere,
  agreesEverywhereText,
  effectText,
  familyNote,
  familyTitle,
  hasPairs,
  verdictText,
} from '../effects.js';
import { caseMatrixOf, comparisonsOf, formatP as formatPText, type ReportSummary } from '../stats-view.js';
import type { Rate } from '../../summary/index.js';
import type { MetricComparison, RateEffect, ShiftEffect } from '../../summary/index.js';
import { breakableName, escapeHtml as esc, shortTime } from './escape.js';
import { variantColor } from './charts.js';
import { renderSweepChart } from './sweep-chart.js';
import { axisTitle, axisValue, latencyCell, rateCellText, sweepRows } from '../sweep-view.js';

const formatP = (p: number | null | undefined): string => esc(formatPText(p));
const rateCell = (rate: Rate): string =>
  rate.total === 0
    ? '<td class="na">–</td>'
    : `<td title="${esc(percentWithInterval(rate))}">${fraction(rate)} <span class="muted">${esc(percentWithInterval(rate))}</span></td>`;
const ms = (value: number | null): string => (value === null ? '–' : shortTime(value));
const num = (value: number | null): string =>
  value === null ? '–' : value < 10 ? value.toFixed(1) : String(Math.round(value));

/** Per variant: every rate with its interval (each column says what it counts over), latency percentiles and costs. */
export function renderVariantTable(summary: ReportSummary): string {
  const rows = summary.groups.map(
    (group, index) =>
      `<tr><th class="name"><span class="swatch" style="background:${variantColor(index)}"></span>${breakableName(group.variant)}</th><td>${esc(group.agent)}</td><td>${group.attempts}</td>${rateCell(group.solved)}${rateCell(group.interrupted)}${rateCell(group.false_kill)}${rateCell(group.fixed)}${rateCell(group.intact)}${rateCell(group.clean)}<td>${ms(group.interruptLatencyMs.p50)} / ${ms(group.interruptLatencyMs.p90)}</td><td>${num(group.ticksPerAttempt)}</td><td>${num(group.tokensPerAttempt)}</td><td>${ms(group.wallMsPerAttempt)}</td><td>${group.errors}</td></tr>`,
  );
  const over = (name: string, kind: string): string => `<th>${name} <span class="over">${kind}</span></th>`;
  return `<table class="variants"><thead><tr><th>variant</th><th>agent</th><th>n</th>${over('solved', 'all')}${over('interrupted', 'hangs')}${over('false kills', 'controls')}${over('fixed', 'hangs')}${over('intact', 'controls')}${over('clean', 'all')}<th>latency p50 / p90</th><th>ticks</th><th>tokens</th><th>wall</th><th>errors</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function familyTable(family: MetricComparison): string {
  if (agreesEverywhere(family))
    return `<h3>${esc(familyTitle(family))}</h3><p class="agrees">${esc(agreesEverywhereText(family))}.</p>`;
  const rate = family.test === 'mcnemar-exact';
  const holmed = family.rows.length > 1;
  const rows = family.rows.map((row: RateEffect | ShiftEffect) => {
    const detail = rate
      ? `${(row as RateEffect).aOnly} / ${(row as RateEffect).bOnly}`
      : (row as ShiftEffect).statistic === null
        ? '–'
        : String((row as ShiftEffect).statistic);
    const verdict =
      row.better === null
        ? `<td class="muted">${esc(verdictText(family, row))}</td>`
        : `<td class="better">${esc(verdictText(family, row))}</td>`;
    return `<tr><th class="name">${breakableName(row.a)}</th><th class="name">${breakableName(row.b)}</th><td>${row.pairs}</td><td>${detail}</td><td class="effect">${esc(effectText(family, row))}</td><td>${formatP(row.p)}</td>${holmed ? `<td>${formatP(row.pAdjusted)}</td>` : ''}${verdict}</tr>`;
  });
  const head = `<tr><th>a</th><th>b</th><th>pairs</th><th>${rate ? 'a only / b only' : 'V'}</th><th>a − b [95 % CI]</th><th>p</th>${holmed ? '<th>p (Holm)</th>' : ''}<th>better</th></tr>`;
  return `<h3>${esc(familyTitle(family))}</h3><p class="muted note">${esc(familyNote(family))}</p><table class="comparisons" data-metric="${esc(family.metric)}"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}

/** One table per compared metric: every two variants paired on case and repeat, the effect a − b, the test, the verdict. */
export function renderComparisons(summary: ReportSummary): string {
  const families = comparisonsOf(summary).filter(hasPairs);
  if (families.length === 0) return '<p class="muted">No pairwise comparison: the run has one variant.</p>';
  return `<p class="muted note">a − b is the first variant minus the second over the attempts both ran for the same case and repeat; the better one is named when the ${families[0]!.rows.length > 1 ? 'Holm-corrected ' : ''}p is below 0.05, else no difference was shown.</p><div class="families">${families.map(familyTable).join('')}</div>`;
}

/** The sweep chart and its table, when the variants differ along one numeric axis. */
export function renderSweep(summary: ReportSummary): string {
  const sweep = summary.sweep;
  if (!sweep) return '';
  const rows = sweepRows(sweep).map(
    ({ line, point }) =>
      `<tr><td>${esc(axisValue(sweep, point.x))}</td><td>${esc(line)}</td><th class="name">${breakableName(point.variant)}</th><td>${esc(latencyCell(point))}</td><td>${esc(rateCellText(point.interrupted))}</td><td>${esc(rateCellText(point.false_kill))}</td><td>${point.pareto ? '★' : ''}</td></tr>`,
  );
  const scale = (summary.options as { timeScale?: unknown }).timeScale;
  const scaled =
    typeof scale === 'number' && scale !== 1
      ? ` The axis shows each variant’s interval as named; at --time-scale ${scale} the monitor ran ${scale}× those, and latencies are as measured.`
      : '';
  const caption = `along the ${esc(axisTitle(sweep))}, one line per ${sweep.lines.length > 1 ? 'mode' : 'setting'}: left, interrupt latency p50 with its 95 % bootstrap interval (ringed: on the Pareto front of latency p50 and false-kill rate); right, hangs interrupted and controls falsely killed with their 95 % Wilson intervals. Lines are offset a few pixels so that their bars do not cover each other.${esc(scaled)}`;
  return `<h2>Sweep</h2><figure class="sweep">${renderSweepChart(sweep)}<figcaption>${caption}</figcaption></figure><table class="sweep"><thead><tr><th>${sweep.axis === 'interval' ? 'interval' : 'hung ticks'}</th><th>line</th><th>variant</th><th>latency p50 [95 % CI]</th><th>interrupted <span class="over">hangs</span></th><th>false kills <span class="over">controls</span></th><th>Pareto</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Case × variant: solved of total, when the summary carries the matrix. */
export function renderCaseMatrix(summary: ReportSummary): string {
  const matrix = caseMatrixOf(summary);
  if (matrix.length === 0) return '';
  const variants = summary.groups.map((group) => group.variant);
  const rows = matrix.map((row) => {
    const cells = variants.map((variant) => {
      const cell = row.cells[variant];
      if (!cell) return '<td class="na">–</td>';
      const tone = cell.solved === cell.total ? 'good' : cell.solved === 0 ? 'bad' : 'mixed';
      return `<td class="${tone}">${cell.solved}/${cell.total}</td>`;
    });
    return `<tr><th><a href="#" data-filter-case="${esc(row.caseId)}">${esc(row.caseId)}</a></th><td>${esc(row.kind)}</td>${cells.join('')}</tr>`;
  });
  return `<h2>Cases × variants</h2><table class="case-matrix"><thead><tr><th>case</th><th>kind</th>${variants.map((v) => `<th>${esc(v)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Per class and variant: solved, interrupted and false kills. */
export function renderClassTable(summary: ReportSummary): string {
  const rows = summary.classes.map(
    (row) =>
      `<tr><th>${esc(row.class)}</th><td>${esc(row.kind)}</td><td>${esc(row.variant)}</td><td>${row.attempts}</td>${rateCell(row.solved)}${rateCell(row.interrupted)}<td>${row.falseKills}</td></tr>`,
  );
  return `<table class="classes"><thead><tr><th>class</th><th>kind</th><th>variant</th><th>n</th><th>solved</th><th>interrupted</th><th>false kills</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
