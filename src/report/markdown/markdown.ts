import { formatDuration } from '../../types/duration.js';
import type { AttemptScores } from '../../types/scores.js';
import { fraction, percentWithInterval } from '../format.js';
import { missedScores } from '../../scorers/index.js';
import { caseMatrixOf, comparisonsOf, formatP, sweepOf, type ReportSummary } from '../stats-view.js';
import type { Rate } from '../../summary/index.js';
import type { MetricComparison, RateEffect, ShiftEffect, Sweep } from '../../summary/index.js';
import {
  agreesEverywhere,
  agreesEverywhereText,
  effectText,
  familyNote,
  familyTitle,
  hasPairs,
  verdictText,
} from '../effects.js';
import { axisTitle, axisValue, latencyCell, rateCellText, sweepRows } from '../sweep-view.js';
import { SHELL_TOOL_HEADS, SHELL_TOOL_NOTE, shellToolCells, shellToolRows } from '../shell-tools-view.js';
import { STDIN_WIRING_NOTE, wiringTable } from '../stdin-wiring-view.js';

/** GitHub rejects a step summary over 1 MiB; the list of failed attempts is cut well before that. */
const MAX_LISTED = 200;

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const rateCell = (rate: Rate): string => (rate.total === 0 ? '–' : `${fraction(rate)} (${percentWithInterval(rate)})`);
const ms = (value: number | null): string => (value === null ? '–' : formatDuration(value));
const row = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
const table = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

function failureLine(attempt: AttemptScores): string {
  const what =
    attempt.outcome === 'error' ? 'ERROR (harness or endpoint)' : missedScores(attempt).join(', ') || 'not solved';
  return `- \`${attempt.caseId}\` ${attempt.variant} #${attempt.repeat} (${attempt.class}): ${what}`;
}

/** One metric over every two variants: the effect a − b with its interval, the test, and the variant it favours. */
function familyTable(family: MetricComparison): string[] {
  if (agreesEverywhere(family)) return [`#### ${familyTitle(family)}`, '', `${agreesEverywhereText(family)}.`, ''];
  const rate = family.test === 'mcnemar-exact';
  const holmed = family.rows.length > 1;
  const rows = family.rows.map((row: RateEffect | ShiftEffect) => [
    row.a,
    row.b,
    String(row.pairs),
    rate
      ? `${(row as RateEffect).aOnly} / ${(row as RateEffect).bOnly}`
      : (row as ShiftEffect).statistic === null
        ? '–'
        : String((row as ShiftEffect).statistic),
    effectText(family, row),
    holmed ? `${formatP(row.p)} (${formatP(row.pAdjusted)})` : formatP(row.p),
    row.better === null ? verdictText(family, row) : `**${verdictText(family, row)}**`,
  ]);
  const head = [
    'a',
    'b',
    'pairs',
    rate ? 'a only / b only' : 'V',
    'a − b [95 % CI]',
    holmed ? 'p (Holm)' : 'p',
    'better',
  ];
  return [`#### ${familyTitle(family)}`, '', `_${familyNote(family)}._`, '', table(head, rows), ''];
}

/** The sweep as a table: one row per variant along the axis, line by line, the Pareto front marked. */
function sweepTable(sweep: Sweep, timeScale: unknown): string[] {
  const rows = sweepRows(sweep).map(({ line, point }) => [
    axisValue(sweep, point.x),
    line,
    point.variant,
    latencyCell(point),
    rateCellText(point.interrupted),
    rateCellText(point.false_kill),
    point.pareto ? '★' : '',
  ]);
  return [
    `### Sweep over the ${axisTitle(sweep)}`,
    '',
    table(
      [
        sweep.axis === 'interval' ? 'interval' : 'hung ticks',
        'line',
        'variant',
        'latency p50 [95 % CI]',
        'interrupted (hangs)',
        'false kills (controls)',
        'Pareto',
      ],
      rows,
    ),
    '',
    '_★: on the Pareto front of latency p50 and false-kill rate (no other variant is at least as low on both and lower on one; a variant that never interrupted counts as slowest)._',
    ...(typeof timeScale === 'number' && timeScale !== 1
      ? [
          '',
          `_Intervals as the variants name them; at --time-scale ${timeScale} the monitor ran ${timeScale}× those, and latencies are as measured._`,
        ]
      : []),
  ];
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
      [
        'variant',
        'n',
        'solved (all)',
        'interrupted (hangs)',
        'false kills (controls)',
        'fixed (hangs)',
        'intact (controls)',
        'latency p50 / p90',
        'tokens / attempt',
        'wall / attempt',
      ],
      summary.groups.map((group) => [
        group.variant,
        String(group.attempts),
        rateCell(group.solved),
        rateCell(group.interrupted),
        rateCell(group.false_kill),
        rateCell(group.fixed),
        rateCell(group.intact),
        `${ms(group.interruptLatencyMs.p50)} / ${ms(group.interruptLatencyMs.p90)}`,
        group.tokensPerAttempt === null ? '–' : String(Math.round(group.tokensPerAttempt)),
        ms(group.wallMsPerAttempt),
      ]),
    ),
  ];
  const families = comparisonsOf(summary).filter(hasPairs);
  if (families.length > 0) {
    const holmed = (families[0]?.rows.length ?? 0) > 1;
    parts.push(
      '',
      '### Variant comparison (paired on case and repeat)',
      '',
      `Per metric, every two variants on the attempts both ran for the same case and repeat; a − b is the first minus the second. ${holmed ? 'p (Holm) is the raw p-value with, in brackets, the one Holm-corrected over the pairs of variants within the metric; ' : ''}the better variant is named when that p is below 0.05, else no difference was shown.`,
      '',
      ...families.flatMap(familyTable),
    );
  }
  const sweep = sweepOf(summary);
  if (sweep) parts.push('', ...sweepTable(sweep, (summary.options as { timeScale?: unknown }).timeScale));
  const shell = shellToolRows(summary.shellTools);
  if (shell.length > 0)
    parts.push(
      '',
      '### Shell tools',
      '',
      `_${SHELL_TOOL_NOTE}_`,
      '',
      table(SHELL_TOOL_HEADS, shell.map(shellToolCells)),
    );
  parts.push(...stdinWiringSection(summary), ...unsolvedCasesSection(summary));
  const failed = summary.attempts.filter((attempt) => !attempt.scores.solved);
  if (failed.length > 0) {
    parts.push('', `### Not solved (${failed.length})`, '', ...failed.slice(0, MAX_LISTED).map(failureLine));
    if (failed.length > MAX_LISTED) parts.push(`- … and ${failed.length - MAX_LISTED} more (see report.html)`);
  }
  return `${parts.join('\n')}\n`;
}

/** The cases some variant did not solve, as a folded case × variant table; [] for one variant or none mixed. */
function unsolvedCasesSection(summary: ReportSummary): string[] {
  const mixed = caseMatrixOf(summary).filter((entry) => Object.values(entry.cells).some((c) => c.solved !== c.total));
  if (mixed.length === 0 || summary.groups.length <= 1) return [];
  const variants = summary.groups.map((group) => group.variant);
  return [
    '',
    '<details><summary>Cases not solved by every variant</summary>',
    '',
    table(
      ['case', ...variants],
      mixed.map((entry) => [
        entry.caseId,
        ...variants.map((v) => (entry.cells[v] ? `${entry.cells[v].solved}/${entry.cells[v].total}` : '–')),
      ]),
    ),
    '',
    '</details>',
  ];
}

/** Each case under each `--stdin` wiring; [] when the run tried fewer than two. */
function stdinWiringSection(summary: ReportSummary): string[] {
  const rows = summary.stdinWiring ?? [];
  if (rows.length === 0) return [];
  const { heads, cells } = wiringTable(rows);
  return ['', '### stdin wiring', '', `_${STDIN_WIRING_NOTE}_`, '', table(heads, cells)];
}
