import { missedScores } from '../../scorers/index.js';
import type { ReportAttempt } from '../run-folder.js';
import { escapeHtml as esc, jsonForScript, shortTime } from './escape.js';
import { renderTimelineSvg } from './timeline-svg.js';

export type AttemptOutcome = 'solved' | 'failed' | 'error' | 'running';

export function outcomeOf(attempt: ReportAttempt): AttemptOutcome {
  if (attempt.timeline.running) return 'running';
  if (attempt.scores.outcome === 'error') return 'error';
  return attempt.scores.scores.solved ? 'solved' : 'failed';
}

const BADGE: Record<AttemptOutcome, string> = {
  solved: '✓ solved',
  failed: '✗ failed',
  error: '! error',
  running: '… running',
};

function why(attempt: ReportAttempt, outcome: AttemptOutcome): string {
  if (outcome === 'running') return '';
  if (outcome === 'error') return attempt.errors.join('; ') || 'the harness or the endpoint broke';
  if (outcome === 'failed') return missedScores(attempt.scores).join(', ');
  const latency = attempt.scores.scores.interrupt_latency;
  return latency === null ? '' : `interrupted ${shortTime(latency)} after onset`;
}

/**
 * One attempt: a header with its outcome, the timeline, the transcript beside it, and the tick texts as JSON for
 * the detail panel. Its `data-*` attributes are what the filters match and its key is the permalink.
 */
export function renderAttemptCard(attempt: ReportAttempt): string {
  const { scores, timeline } = attempt;
  const outcome = outcomeOf(attempt);
  const ticks = timeline.ticks.map(({ t, commandId, tickSeq, classification, reason, text, prompt, decision }) => ({
    t,
    commandId,
    tickSeq,
    classification,
    reason,
    text,
    prompt,
    decision,
  }));
  const transcript = timeline.transcript
    .map(
      (line) =>
        `<li class="ev-${esc(line.type.replace(/\./g, '-'))}"><span class="t">${shortTime(line.t)}</span> <span class="ty">${esc(line.type)}</span> ${esc(line.text)}</li>`,
    )
    .join('');
  const attrs = [
    ['key', timeline.key],
    ['case', scores.caseId],
    ['variant', scores.variant],
    ['class', scores.class],
    ['kind', scores.kind],
    ['outcome', outcome],
  ]
    .map(([name, value]) => `data-${name}="${esc(value ?? '')}"`)
    .join(' ');
  const reason = why(attempt, outcome);
  return `<section class="attempt ${outcome}" ${attrs}>
<header><a class="permalink" href="#${esc(encodeURI(timeline.key))}">#</a> <span class="badge ${outcome}">${BADGE[outcome]}</span> <b>${esc(scores.caseId)}</b> <span class="muted">${esc(scores.variant)} · repeat ${scores.repeat} · ${esc(scores.kind)} ${esc(scores.class)} · ${scores.ticks} ticks · ${shortTime(scores.wallMs)}</span>${reason ? ` <span class="why">${esc(reason)}</span>` : ''}</header>
<div class="body"><div class="chart">${renderTimelineSvg(timeline)}<div class="tick-detail" hidden></div></div><ol class="transcript">${transcript}</ol></div>
<script type="application/json" class="tick-data">${jsonForScript(ticks)}</script>
</section>`;
}
