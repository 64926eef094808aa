import type { RunReport } from '../run-folder.js';
import { outcomeOf, renderAttemptCard } from './attempt-card.js';
import { renderRatesChart, renderTradeoffChart } from './charts.js';
import { CLIENT_SCRIPT } from './client-script.js';
import { escapeHtml as esc, jsonForScript, shortTime } from './escape.js';
import { STYLES } from './styles.js';
import {
  renderCaseMatrix,
  renderClassTable,
  renderComparisons,
  renderSweep,
  renderVariantTable,
} from './summary-section.js';
import { renderShellTools } from './shell-tools-section.js';
import { renderStdinWiring } from './stdin-wiring-section.js';

/** Where a live page (`hangbench view`) gets its updates: an SSE stream and a URL that renders one attempt. */
export interface LiveEndpoints {
  readonly events: string;
  readonly attempt: string;
  /** the run this page shows: events about other runs are ignored. */
  readonly run: string;
}

function filterSelect(name: string, label: string, values: readonly string[]): string {
  const options = [...new Set(values)].sort().map((value) => `<option value="${esc(value)}">${esc(value)}</option>`);
  return `<label>${label}<select data-filter="${name}"><option value="">all</option>${options.join('')}</select></label>`;
}

function header(report: RunReport): string {
  const { summary } = report;
  const options = summary.options as Record<string, unknown>;
  const facts = [
    ['started', summary.startedAt],
    ['finished', summary.finishedAt ?? (summary.interrupted ? 'interrupted' : 'running')],
    ['hangbench', summary.hangbenchVersion ?? '–'],
    ['time scale', String(options.timeScale ?? '–')],
    ['repeat', String(options.repeat ?? '–')],
    ['summary version', String(summary.summaryVersion)],
  ]
    .map(([name, value]) => `<span><span class="muted">${esc(name ?? '')}</span> ${esc(value ?? '')}</span>`)
    .join(' · ');
  const { attempts, solved, errors } = summary.totals;
  return `<h1>hangbench run ${esc(summary.runId)}</h1><p>${facts}</p><p><b>${solved}/${attempts}</b> solved · ${attempts - solved - errors} failed · ${errors} errors${summary.interrupted ? ' · <b>stopped before every attempt ran</b>' : ''} <span id="live-status"></span></p>`;
}

/** The whole report as one self-contained HTML file: data inlined, no network, opens from disk. */
export function renderReportHtml(report: RunReport, live?: LiveEndpoints): string {
  const { summary, attempts } = report;
  const cards = attempts.map(renderAttemptCard).join('\n');
  const latencyNote = summary.groups.some((group) => group.interruptLatencyMs.p50 !== null)
    ? 'dot size: interrupt latency p50'
    : 'no interrupt latency recorded';
  const liveConfig = live ? `<script type="application/json" id="live-config">${jsonForScript(live)}</script>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src 'self'">
<title>hangbench ${esc(summary.runId)}</title><style>${STYLES}</style></head><body>
${header(report)}
<h2>Variants</h2>${renderVariantTable(summary)}
<div class="charts"><figure>${renderRatesChart(summary.groups)}<figcaption>each rate per variant, with its 95 % Wilson interval</figcaption></figure>
<figure class="tradeoff">${renderTradeoffChart(summary.groups)}<figcaption>per variant: hangs interrupted against controls falsely killed, intervals as bars; ${latencyNote}; variants on one spot share a label</figcaption></figure></div>
${renderSweep(summary)}
<h2>Variant comparison</h2>${renderComparisons(summary)}
${renderCaseMatrix(summary)}
${renderShellTools(summary)}
${renderStdinWiring(summary)}
<details class="classes"><summary><h2>Classes</h2></summary>${renderClassTable(summary)}</details>
<h2>Attempts</h2>
<div class="filters">${filterSelect(
    'case',
    'case',
    attempts.map((a) => a.scores.caseId),
  )}${filterSelect(
    'variant',
    'variant',
    attempts.map((a) => a.scores.variant),
  )}${filterSelect(
    'class',
    'class',
    attempts.map((a) => a.scores.class),
  )}${filterSelect('outcome', 'outcome', attempts.map(outcomeOf))}<span id="shown" class="muted"></span><span class="muted">ticks: green progressing, orange looks hung · click a tick for the text the agent saw · total wall ${shortTime(attempts.reduce((sum, a) => sum + a.scores.wallMs, 0))}</span></div>
<div id="attempts">
${cards}
</div>
${liveConfig}<script>${CLIENT_SCRIPT}</script>
</body></html>
`;
}
