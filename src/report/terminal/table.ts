import type { AttemptScores } from '../../types/scores.js';
import { DASH, count, duration, fraction, mark, paint, percentWithInterval } from '../format.js';
import type { Rate, RunSummary } from '../../summary/index.js';
import { newTable, tableToString } from './table-style.js';

export interface RenderOptions {
  /** ANSI colours; pass false when NO_COLOR is set or the stream is not a TTY. */
  readonly color: boolean;
}

const heads = (names: readonly string[], color: boolean): string[] => names.map((name) => paint(name, 'bold', color));

function solvedCell(attempt: AttemptScores, color: boolean): string {
  const cell = mark(attempt.scores.solved, color);
  return attempt.outcome === 'completed'
    ? cell
    : `${cell} ${paint(attempt.outcome, attempt.outcome === 'error' ? 'red' : 'yellow', color)}`;
}

/** One row per attempt: every score as ✓ / ✗ / – (not applicable to its kind: fixed is a hang's, intact a control's). */
export function renderAttemptTable(
  attempts: readonly AttemptScores[],
  { color }: RenderOptions = { color: false },
): string {
  const table = newTable(
    heads(
      [
        'case',
        'agent',
        'variant',
        'kind',
        'repro',
        'intr',
        'fixed',
        'f.kill',
        'done',
        'intact',
        'budg',
        'clean',
        'solved',
        'latency',
        'ticks',
        'wall',
      ],
      color,
    ),
    [
      'left',
      'left',
      'left',
      'left',
      'center',
      'center',
      'center',
      'center',
      'center',
      'center',
      'center',
      'center',
      'left',
      'right',
      'right',
      'right',
    ],
  );
  for (const attempt of attempts) {
    const { scores } = attempt;
    table.push([
      attempt.caseId,
      attempt.agent,
      `${attempt.variant} #${attempt.repeat}`,
      attempt.kind,
      mark(scores.reproduced, color),
      mark(scores.interrupted, color),
      mark(scores.fixed, color),
      mark(scores.false_kill, color),
      mark(scores.completed, color),
      mark(scores.intact, color),
      mark(scores.within_budget, color),
      mark(scores.clean, color),
      solvedCell(attempt, color),
      duration(scores.interrupt_latency),
      String(attempt.ticks),
      duration(attempt.wallMs),
    ]);
  }
  return tableToString(table);
}

/** Per agent/variant: solved with its 95 % interval, the hang rates (repro, intr, fixed), the control rates (f.kill, done, intact), latency, cost. */
export function renderSummaryTable(summary: RunSummary, { color }: RenderOptions = { color: false }): string {
  const table = newTable(
    heads(
      [
        'agent',
        'variant',
        'n',
        'solved [95% CI]',
        'repro',
        'intr',
        'fixed',
        'diag',
        'f.kill',
        'done',
        'intact',
        'latency p50/p90',
        'ticks',
        'tokens',
        'wall',
        'errors',
      ],
      color,
    ),
    [
      'left',
      'left',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
    ],
  );
  for (const group of summary.groups) {
    const { p50, p90 } = group.interruptLatencyMs;
    table.push([
      group.agent,
      group.variant,
      String(group.attempts),
      percentWithInterval(group.solved),
      fraction(group.reproduced),
      fraction(group.interrupted),
      fraction(group.fixed),
      diagnosedCell(group.diagnosed),
      fraction(group.false_kill),
      fraction(group.completed),
      fraction(group.intact),
      p50 === null ? DASH : `${duration(p50)} / ${duration(p90)}`,
      count(group.ticksPerAttempt),
      count(group.tokensPerAttempt),
      duration(group.wallMsPerAttempt),
      group.errors === 0 ? '0' : paint(String(group.errors), 'red', color),
    ]);
  }
  return `${tableToString(table)}${cpuBoundLine(summary)}`;
}

/** Under the summary: the attempts' CPU over the cores (the wall no schedule could beat) against the run's wall. */
function cpuBoundLine({ cpuBound }: RunSummary): string {
  if (!cpuBound) return '';
  const ratio = cpuBound.ratio === null ? '' : `: ${cpuBound.ratio.toFixed(2)} × that`;
  return `\nCPU the attempts used: ${duration(cpuBound.cpuMs)} over ${cpuBound.cores} cores, ${duration(cpuBound.idealMs)} of wall at the least; the run took ${duration(cpuBound.wallMs)}${ratio}`;
}

/** Per case class and agent/variant: attempts, solved, interrupted (hangs), false kills (controls). */
export function renderClassTable(summary: RunSummary, { color }: RenderOptions = { color: false }): string {
  const table = newTable(heads(['class', 'kind', 'agent', 'variant', 'n', 'solved', 'intr', 'diag', 'f.kill'], color), [
    'left',
    'left',
    'left',
    'left',
    'right',
    'right',
    'right',
    'right',
    'right',
  ]);
  for (const row of summary.classes) {
    const solved =
      row.solved.count === row.solved.total ? fraction(row.solved) : paint(fraction(row.solved), 'red', color);
    table.push([
      row.class,
      row.kind,
      row.agent,
      row.variant,
      String(row.attempts),
      solved,
      fraction(row.interrupted),
      diagnosedCell(row.diagnosed),
      row.kind === 'control' ? String(row.falseKills) : DASH,
    ]);
  }
  return tableToString(table);
}

/** The diagnosis rate over the attempts whose case names a culprit; – where none does (or an older summary). */
function diagnosedCell(diagnosed: Rate | undefined): string {
  return diagnosed && diagnosed.total > 0 ? fraction(diagnosed) : DASH;
}
