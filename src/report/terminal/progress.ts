import { formatDuration } from '../../types/duration.js';
import type { AttemptScores } from '../../types/scores.js';
import { paint } from '../format.js';
import { missedScores } from '../../scorers/index.js';
import type { AttemptInfo, Reporter } from '../../run/index.js';
import type { ReporterContext } from '../reporter-context.js';
import type { RunSummary } from '../../summary/index.js';

const CLEAR_LINE = '\r\u001b[2K';

const label = (attempt: AttemptInfo): string => `${attempt.caseId} ${attempt.variant} #${attempt.repeat}`;

/** `✓ py-pipe-deadlock baseline-10s #1 solved 12.3s`; `!` marks a harness/endpoint error, not an agent failure. */
export function finishedLine(attempt: AttemptInfo, scores: AttemptScores, color: boolean): string {
  const wall = formatDuration(scores.wallMs);
  if (scores.outcome === 'error') return `${paint('!', 'yellow', color)} ${label(attempt)} error ${wall}`;
  if (scores.scores.solved) return `${paint('✓', 'green', color)} ${label(attempt)} solved ${wall}`;
  const missed = missedScores(scores);
  return `${paint('✗', 'red', color)} ${label(attempt)} failed${missed.length > 0 ? ` (${missed.join(', ')})` : ''} ${wall}`;
}

interface Running {
  readonly attempt: AttemptInfo;
  readonly startedAt: number;
}

/**
 * Progress on a stream (stderr). Live: one status line rewritten in place with \r + clear-line.
 * Otherwise (CI, a pipe): one line per finished attempt. Never writes to stdout.
 */
export function createProgressReporter(context: ReporterContext): Reporter {
  const { stream, live, color } = context;
  const now = context.now ?? Date.now;
  const running = new Map<string, Running>();
  let runStartedAt = now();
  let planned = 0;
  let finished = 0;
  let solved = 0;
  let errors = 0;

  const counts = (): string =>
    `${finished}/${planned} done · ${solved} solved · ${finished - solved - errors} failed · ${errors} errors`;

  const statusLine = (): string => {
    const t = now();
    const current = [...running.values()].map((r) => `${label(r.attempt)} ${formatDuration(t - r.startedAt)}`);
    const line = `${counts()} · ${running.size} running · ${formatDuration(t - runStartedAt)}${current.length > 0 ? ` │ ${current.join(', ')}` : ''}`;
    const width = Math.max(20, (stream.columns ?? 120) - 1);
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  };

  const redraw = (): void => {
    if (live) stream.write(`${CLEAR_LINE}${statusLine()}`);
  };

  return {
    name: 'progress',
    onRunStart(info) {
      runStartedAt = now();
      planned = info.attempts;
      redraw();
    },
    onAttemptStart(attempt) {
      running.set(attempt.attemptId, { attempt, startedAt: now() });
      redraw();
    },
    onTick() {
      redraw();
    },
    onAttemptEnd(attempt, scores) {
      running.delete(attempt.attemptId);
      finished += 1;
      if (scores.outcome === 'error') errors += 1;
      else if (scores.scores.solved) solved += 1;
      if (live) redraw();
      else stream.write(`${finishedLine(attempt, scores, color)}\n`);
    },
    onRunEnd(summary: RunSummary) {
      const line = `${summary.totals.attempts} attempts · ${summary.totals.solved} solved · ${summary.totals.errors} errors · ${formatDuration(now() - runStartedAt)}`;
      stream.write(`${live ? CLEAR_LINE : ''}${line}\n`);
    },
  };
}
