import { CLASSIFICATIONS, looksHung, type Classification } from '../../types/process.js';
import { escapeHtml as esc, shortTime } from './escape.js';
import type { AttemptTimeline, TimelineCommand } from './timeline-model.js';

const WIDTH = 760;
const LABEL = 170;
const RIGHT = 16;
const ROW = 24;
const AXIS = 22;
const STEPS = [50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000];

const isClassification = (value: string): value is Classification =>
  (CLASSIFICATIONS as readonly string[]).includes(value);
const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function axis(span: number, x: (t: number) => number, height: number): string {
  const step = STEPS.find((candidate) => span / candidate <= 8) ?? STEPS.at(-1)!;
  const marks: string[] = [];
  for (let t = 0; t <= span; t += step) {
    marks.push(
      `<line class="grid" x1="${x(t)}" x2="${x(t)}" y1="${AXIS - 4}" y2="${height}"/><text class="axis" x="${x(t)}" y="12">${shortTime(t)}</text>`,
    );
  }
  return marks.join('');
}

function commandLabel(command: TimelineCommand): string {
  const exit =
    command.end === null
      ? 'still running'
      : command.signal
        ? `ended by ${command.signal}`
        : `exit ${command.exitCode ?? '?'}`;
  return `#${command.id} ${command.command} — ${exit}${command.isRepro ? ' (repro)' : ''}${command.background ? ' (background)' : ''}`;
}

/**
 * One attempt as an SVG: a row per command (its bar from start to exit), a mark per tick on that row (class
 * `tick`, `data-tick` = index into the attempt's tick data), the onset as a dashed line, kills with who decided and
 * the latency since onset, then rows for edits and verify results.
 */
export function renderTimelineSvg(timeline: AttemptTimeline): string {
  const rows = timeline.commands.length + 2;
  const height = AXIS + rows * ROW + 6;
  const lastEvent = Math.max(
    timeline.durationMs,
    ...timeline.ticks.map((tick) => tick.t),
    ...timeline.verify.map((mark) => mark.t),
    1,
  );
  const x = (t: number): number => Math.round((LABEL + (t / lastEvent) * (WIDTH - LABEL - RIGHT)) * 10) / 10;
  const rowOf = new Map(timeline.commands.map((command, index) => [command.id, index]));
  const yOf = (row: number): number => AXIS + row * ROW;
  const parts: string[] = [axis(lastEvent, x, height)];

  timeline.commands.forEach((command, index) => {
    const y = yOf(index);
    const end = command.end ?? lastEvent;
    const kind = command.isRepro ? 'cmd repro' : 'cmd';
    parts.push(
      `<text class="row-label" x="4" y="${y + 15}">${esc(clip(`#${command.id} ${command.command}`, 24))}</text>`,
      `<rect class="${kind}${command.end === null ? ' open' : ''}" x="${x(command.start)}" y="${y + 5}" width="${Math.max(2, x(end) - x(command.start))}" height="14" rx="3"><title>${esc(commandLabel(command))}</title></rect>`,
    );
  });
  const editsRow = yOf(timeline.commands.length);
  const verifyRow = yOf(timeline.commands.length + 1);
  parts.push(
    `<text class="row-label" x="4" y="${editsRow + 15}">edits</text>`,
    `<text class="row-label" x="4" y="${verifyRow + 15}">verify</text>`,
  );

  for (const onset of timeline.onsets) {
    parts.push(
      `<g class="onset"><line x1="${x(onset.t)}" x2="${x(onset.t)}" y1="${AXIS - 6}" y2="${height - 4}"/><title>${esc(`${onset.label} at ${shortTime(onset.t)}`)}</title></g>`,
    );
  }
  for (const kill of timeline.kills) {
    // a kill of a command the agent did not start is the harness ending a verify step
    const row = rowOf.get(kill.commandId);
    const y = row === undefined ? verifyRow : yOf(row);
    const latency = kill.sinceOnsetMs === null ? '' : ` +${shortTime(kill.sinceOnsetMs)} after onset`;
    const label = `killed by ${kill.by}${latency}`;
    const anchor = x(kill.t) > WIDTH - 190 ? 'end' : 'start';
    parts.push(
      `<g class="kill by-${esc(kill.by)}"><path d="M${x(kill.t) - 5},${y + 7} l10,10 m0,-10 l-10,10"/><text x="${x(kill.t) + (anchor === 'end' ? -8 : 8)}" y="${y + 16}" text-anchor="${anchor}">${esc(label)}</text><title>${esc(`${label} at ${shortTime(kill.t)}: ${kill.reason}${kill.goneMs === null ? '' : `; tree gone in ${shortTime(kill.goneMs)}`}`)}</title></g>`,
    );
  }
  for (const edit of timeline.edits) {
    const cx = x(edit.t);
    parts.push(
      `<g class="edit"><path d="M${cx},${editsRow + 5} l6,7 l-6,7 l-6,-7 z"/><title>${esc(`${edit.label} at ${shortTime(edit.t)}`)}</title></g>`,
    );
  }
  for (const result of timeline.verify) {
    parts.push(
      `<g class="verify ${result.ok ? 'pass' : 'fail'}"><circle cx="${x(result.t)}" cy="${verifyRow + 12}" r="6"/><title>${esc(`${result.label} at ${shortTime(result.t)}`)}</title></g>`,
    );
  }
  // ticks last, so they sit above the kill and onset marks they coincide with and stay clickable
  timeline.ticks.forEach((tick, index) => {
    const y = yOf(rowOf.get(tick.commandId) ?? 0);
    const hung = isClassification(tick.classification) && looksHung(tick.classification);
    const title = `tick ${tick.tickSeq} at ${shortTime(tick.t)}: ${tick.classification}${tick.decision ? ` → ${tick.decision}` : ''}`;
    parts.push(
      `<g class="tick ${hung ? 'hung' : 'ok'}" data-tick="${index}" tabindex="0" role="button" aria-label="${esc(title)}"><rect class="hit" x="${x(tick.t) - 4}" y="${y + 1}" width="8" height="22"/><line x1="${x(tick.t)}" x2="${x(tick.t)}" y1="${y + 2}" y2="${y + 22}"/><circle cx="${x(tick.t)}" cy="${y + 4}" r="3"/><title>${esc(title)}</title></g>`,
    );
  });
  return `<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="timeline of ${esc(timeline.key)}">${parts.join('')}</svg>`;
}
