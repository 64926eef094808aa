import { formatDuration } from '../types/duration.js';
import type { AttemptScores } from '../types/scores.js';
import { fraction, percentWithInterval } from './format.js';
import { missedScores } from '../scorers/missed.js';
import { caseMatrixOf, comparisonsOf, formatP, type ReportSummary } from './stats-view.js';
import type { Rate } from '../summary/schema.js';

/** GitHub rejects a step summary over 1 MiB; the list of failed attempts is cut well before that. */
const MAX_LISTED = 200;

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const rateCell = (rate: Rate): string => (rate.total === 0 ? '–' : `${fraction(rate)} (${percentWithInterval(rate)})`);
const ms = (value: number | null): string => (value === null ? '–' : formatDuration(value));
const row = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
const table = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

function failureLine(attempt: AttemptScores): string {
  const what = attempt.outcome === 'error' ? 'ERROR (harness or endpoint)' : missedScores(attempt).join(', ') || 'not solved';
  return `- \`${attempt.caseId}\` ${attempt.variant} #${attempt.repeat} (${attempt.class}): ${what}`;
}

/** report.md: the run for `$GITHUB_STEP_SUMMARY` and PR comments — totals, variants, comparisons, what failed. */
export function renderMarkdown(summary: ReportSummary): string {
  const { attempts, solved, errors } = summary.totals;
  const parts: string[] = [
    `## hangbench run \`${summary.runId}\``,
    '',
    `**${solved}/${attempts} solved** · ${attempts - solved - errors} failed · ${errors} errors${summary.interrupted ? ' · stopped before every attempt ran' : ''}`,
    '',
    table(
      ['variant', 'n', 'solved', 'interrupted', 'false kills', 'fixed', 'latency p50 / p90', 'tokens / attempt', 'wall / attempt'],
      summary.groups.map((group) => [
        group.variant,
        String(group.attempts),
        rateCell(group.solved),
        rateCell(group.interrupted),
        rateCell(group.false_kill),
        rateCell(group.fixed),
        `${ms(group.interruptLatencyMs.p50)} / ${ms(group.interruptLatencyMs.p90)}`,
        group.tokensPerAttempt === null ? '–' : String(Math.round(group.tokensPerAttempt)),
        ms(group.wallMsPerAttempt),
      ]),
    ),
  ];
  const comparisons = comparisonsOf(summary);
  if (comparisons.length > 0) {
    parts.push(
      '',
      '### Variant comparison (paired on case and repeat)',
      '',
      table(
        ['a', 'b', 'solved: a only / b only', 'p (adj.)', 'latency test', 'p (adj.)'],
        comparisons.map((c) => [
          c.a,
          c.b,
          c.solved ? `${c.solved.aOnly ?? '–'} / ${c.solved.bOnly ?? '–'} of ${c.solved.pairs}` : '–',
          c.solved ? `${formatP(c.solved.p)} (${formatP(c.solved.pAdjusted)})` : '–',
          c.latency ? `${c.latency.test}, ${c.latency.pairs} pairs` : '–',
          c.latency ? `${formatP(c.latency.p)} (${formatP(c.latency.pAdjusted)})` : '–',
        ]),
      ),
    );
  }
  const mixed = caseMatrixOf(summary).filter((entry) => Object.values(entry.cells).some((c) => c.solved !== c.total));
  if (mixed.length > 0 && summary.groups.length > 1) {
    const variants = summary.groups.map((group) => group.variant);
    parts.push('', '<details><summary>Cases not solved by every variant</summary>', '', table(['case', ...variants], mixed.map((entry) => [entry.caseId, ...variants.map((v) => (entry.cells[v] ? `${entry.cells[v].solved}/${entry.cells[v].total}` : '–'))])), '', '</details>');
  }
  const failed = summary.attempts.filter((attempt) => !attempt.scores.solved);
  if (failed.length > 0) {
    parts.push('', `### Not solved (${failed.length})`, '', ...failed.slice(0, MAX_LISTED).map(failureLine));
    if (failed.length > MAX_LISTED) parts.push(`- … and ${failed.length - MAX_LISTED} more (see report.html)`);
  }
  return `${parts.join('\n')}\n`;
}
