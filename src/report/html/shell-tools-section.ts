import type { ReportSummary } from '../stats-view.js';
import { SHELL_TOOL_HEADS, SHELL_TOOL_NOTE, shellToolCells, shellToolRows } from '../shell-tools-view.js';
import { escapeHtml as esc } from './escape.js';

/**
 * The "Shell tools" section: one row per CLI × hang class (modes of one CLI side by side), and under each row the tool
 * result its first attempt's CLI sent the model, exactly as sent. '' when no installed CLI ran a repro.
 */
export function renderShellTools(summary: ReportSummary): string {
  const rows = shellToolRows(summary.shellTools);
  if (rows.length === 0) return '';
  const body = rows.map((row) => {
    const cells = shellToolCells(row).map((cell, index) =>
      index === 0 ? `<th class="name">${esc(cell)}</th>` : `<td>${esc(cell)}</td>`,
    );
    const result =
      row.example === null
        ? '<span class="muted">no tool result reached the model</span>'
        : `<details><summary>tool result as sent</summary><pre class="tool-result">${esc(row.example)}</pre></details>`;
    return `<tr data-cli="${esc(row.cli)}" data-class="${esc(row.class)}" data-mode="${esc(row.mode ?? '')}">${cells.join('')}</tr><tr class="tool-result-row"><td colspan="${SHELL_TOOL_HEADS.length}">${result}</td></tr>`;
  });
  const head = SHELL_TOOL_HEADS.map((name) => `<th>${esc(name)}</th>`).join('');
  return `<h2>Shell tools</h2><p class="muted note">${esc(SHELL_TOOL_NOTE)}</p><table class="shell-tools"><thead><tr>${head}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}
