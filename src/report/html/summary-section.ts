import { fraction, percentWithInterval } from '../format.js';
import { caseMatrixOf, comparisonsOf, formatP as formatPText, type ReportSummary } from '../stats-view.js';
import type { Rate } from '../../summary/schema.js';
import { escapeHtml as esc, shortTime } from './escape.js';
import { variantColor } from './charts.js';

const formatP = (p: number | null | undefined): string => esc(formatPText(p));
const rateCell = (rate: Rate): string => (rate.total === 0 ? '<td class="na">–</td>' : `<td title="${esc(percentWithInterval(rate))}">${fraction(rate)} <span class="muted">${esc(percentWithInterval(rate))}</span></td>`);
const ms = (value: number | null): string => (value === null ? '–' : shortTime(value));
const num = (value: number | null): string => (value === null ? '–' : value < 10 ? value.toFixed(1) : String(Math.round(value)));

/** Per variant: every rate with its interval, latency percentiles and costs. */
export function renderVariantTable(summary: ReportSummary): string {
  const rows = summary.groups.map(
    (group, index) =>
      `<tr><th><span class="swatch" style="background:${variantColor(index)}"></span>${esc(group.variant)}</th><td>${esc(group.agent)}</td><td>${group.attempts}</td>${rateCell(group.solved)}${rateCell(group.interrupted)}${rateCell(group.false_kill)}${rateCell(group.fixed)}${rateCell(group.clean)}<td>${ms(group.interruptLatencyMs.p50)} / ${ms(group.interruptLatencyMs.p90)}</td><td>${num(group.ticksPerAttempt)}</td><td>${num(group.tokensPerAttempt)}</td><td>${ms(group.wallMsPerAttempt)}</td><td>${group.errors}</td></tr>`,
  );
  return `<table class="variants"><thead><tr><th>variant</th><th>agent</th><th>n</th><th>solved</th><th>interrupted</th><th>false kills</th><th>fixed</th><th>clean</th><th>latency p50 / p90</th><th>ticks</th><th>tokens</th><th>wall</th><th>errors</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Pairwise tests between variants (paired on case and repeat), when the summary carries them. */
export function renderComparisons(summary: ReportSummary): string {
  const comparisons = comparisonsOf(summary);
  if (comparisons.length === 0) return '<p class="muted">No pairwise comparison: the summary has none (one variant, or written before statistics).</p>';
  const rows = comparisons.map((c) => {
    const solved = c.solved ? `<td>${esc(c.solved.test)}</td><td>${c.solved.pairs}</td><td>${c.solved.aOnly ?? '–'} / ${c.solved.bOnly ?? '–'}</td><td>${formatP(c.solved.p)}</td><td>${formatP(c.solved.pAdjusted)}</td>` : '<td colspan="5" class="na">–</td>';
    const latency = c.latency ? `<td>${esc(c.latency.test)}${c.latency.method ? ` (${esc(c.latency.method)})` : ''}</td><td>${c.latency.pairs}</td><td>${formatP(c.latency.p)}</td><td>${formatP(c.latency.pAdjusted)}</td>` : '<td colspan="4" class="na">–</td>';
    return `<tr><th>${esc(c.a)}</th><th>${esc(c.b)}</th>${solved}${latency}</tr>`;
  });
  return `<table class="comparisons"><thead><tr><th rowspan="2">a</th><th rowspan="2">b</th><th colspan="5">solved (paired)</th><th colspan="4">interrupt latency (paired)</th></tr><tr><th>test</th><th>pairs</th><th>a only / b only</th><th>p</th><th>p adj.</th><th>test</th><th>pairs</th><th>p</th><th>p adj.</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
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
    (row) => `<tr><th>${esc(row.class)}</th><td>${esc(row.kind)}</td><td>${esc(row.variant)}</td><td>${row.attempts}</td>${rateCell(row.solved)}${rateCell(row.interrupted)}<td>${row.falseKills}</td></tr>`,
  );
  return `<table class="classes"><thead><tr><th>class</th><th>kind</th><th>variant</th><th>n</th><th>solved</th><th>interrupted</th><th>false kills</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
