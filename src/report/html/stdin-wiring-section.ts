import type { ReportSummary } from '../stats-view.js';
import { STDIN_WIRING_NOTE, wiringTable } from '../stdin-wiring-view.js';
import { escapeHtml as esc } from './escape.js';

/** The "stdin wiring" section: each case under each `--stdin` wiring; '' when the run tried fewer than two. */
export function renderStdinWiring(summary: ReportSummary): string {
  const rows = summary.stdinWiring ?? [];
  if (rows.length === 0) return '';
  const { heads, cells } = wiringTable(rows);
  const body = cells.map(
    (row) =>
      `<tr data-case="${esc(row[0] ?? '')}">${row.map((cell, index) => (index === 0 ? `<th class="name">${esc(cell)}</th>` : `<td>${esc(cell)}</td>`)).join('')}</tr>`,
  );
  const head = heads.map((name) => `<th>${esc(name)}</th>`).join('');
  return `<h2>stdin wiring</h2><p class="muted note">${esc(STDIN_WIRING_NOTE)}</p><table class="stdin-wiring"><thead><tr>${head}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}
