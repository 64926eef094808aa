import { DASH, count, duration, fraction, paint, percentWithInterval } from '../format.js';
import type { GroupSummary, Rate, RunSummary } from '../../summary/index.js';
import { newTable, tableToString } from './table-style.js';
import type { RenderOptions } from './table.js';

/** Which way is better for a metric; `none` is never marked. */
type Better = 'higher' | 'lower' | 'none';

interface Metric {
  readonly label: string;
  readonly better: Better;
  /** the value the best is chosen on; null when the variant has none */
  readonly value: (group: GroupSummary) => number | null;
  readonly cell: (group: GroupSummary) => string;
}

const rateMetric = (label: string, better: Better, pick: (group: GroupSummary) => Rate): Metric => ({
  label,
  better,
  value: (group) => pick(group).rate,
  cell: (group) => (pick(group).total === 0 ? DASH : `${fraction(pick(group))} ${percentWithInterval(pick(group))}`),
});

const latencyMetric = (q: 'p50' | 'p90'): Metric => ({
  label: `latency ${q}`,
  better: 'lower',
  value: (group) => group.interruptLatencyMs[q],
  cell: (group) => {
    const latency = group.interruptLatencyMs;
    const [value, low, high] =
      q === 'p50' ? [latency.p50, latency.p50Low, latency.p50High] : [latency.p90, latency.p90Low, latency.p90High];
    return value === null ? DASH : `${duration(value)} [${duration(low)}–${duration(high)}]`;
  },
});

/** The largest k every variant has a pass@k for, so the row compares like with like; null below 2 (pass@1 is the solved rate). */
function commonK(groups: readonly GroupSummary[]): number | null {
  const k = Math.min(...groups.map((group) => group.passAtK.at(-1)?.k ?? 0));
  return groups.length === 0 || k < 2 ? null : k;
}

function metrics(groups: readonly GroupSummary[]): Metric[] {
  const k = commonK(groups);
  const pass =
    (field: 'passAtK' | 'passHatK') =>
    (group: GroupSummary): number | null =>
      k === null ? null : (group.passAtK.find((point) => point.k === k)?.[field] ?? null);
  const percent = (value: number | null): string => (value === null ? DASH : `${Math.round(value * 100)}%`);
  return [
    { label: 'attempts', better: 'none', value: (group) => group.attempts, cell: (group) => String(group.attempts) },
    rateMetric('solved (all)', 'higher', (group) => group.solved),
    ...(k === null
      ? []
      : [
          {
            label: `pass@${k}`,
            better: 'higher',
            value: pass('passAtK'),
            cell: (group) => percent(pass('passAtK')(group)),
          } satisfies Metric,
          {
            label: `pass^${k}`,
            better: 'higher',
            value: pass('passHatK'),
            cell: (group) => percent(pass('passHatK')(group)),
          } satisfies Metric,
        ]),
    rateMetric('reproduced (hangs)', 'none', (group) => group.reproduced),
    rateMetric('interrupted (hangs)', 'higher', (group) => group.interrupted),
    latencyMetric('p50'),
    latencyMetric('p90'),
    rateMetric('false kills (controls)', 'lower', (group) => group.false_kill),
    rateMetric('completed (controls)', 'higher', (group) => group.completed),
    rateMetric('fixed (hangs)', 'higher', (group) => group.fixed),
    rateMetric('intact (controls)', 'higher', (group) => group.intact),
    {
      label: 'ticks / attempt',
      better: 'none',
      value: (group) => group.ticksPerAttempt,
      cell: (group) => count(group.ticksPerAttempt),
    },
    {
      label: 'tokens / tick',
      better: 'lower',
      value: (group) => group.tokensPerTick,
      cell: (group) => count(group.tokensPerTick),
    },
    {
      label: 'tokens / attempt',
      better: 'lower',
      value: (group) => group.tokensPerAttempt,
      cell: (group) => count(group.tokensPerAttempt),
    },
    {
      label: 'wall / attempt',
      better: 'lower',
      value: (group) => group.wallMsPerAttempt,
      cell: (group) => duration(group.wallMsPerAttempt),
    },
    { label: 'errors', better: 'none', value: (group) => group.errors, cell: (group) => String(group.errors) },
  ];
}

/** Indexes of the best variants on a metric; none when fewer than two have a value or all are equal. */
export function bestOf(values: ReadonlyArray<number | null>, better: Better): Set<number> {
  const present = values.filter((value): value is number => value !== null);
  if (better === 'none' || present.length < 2 || present.every((value) => value === present[0])) return new Set();
  const best = better === 'higher' ? Math.max(...present) : Math.min(...present);
  return new Set(values.flatMap((value, index) => (value === best ? [index] : [])));
}

/** One column per variant, one row per metric; the best of each row marked `*`, 95 % intervals in brackets. */
export function renderComparisonTable(
  summary: Pick<RunSummary, 'groups' | 'statistics'>,
  { color }: RenderOptions = { color: false },
): string {
  const { groups } = summary;
  const table = newTable(
    ['metric', ...groups.map((group) => group.variant)].map((head) => paint(head, 'bold', color)),
    ['left', ...groups.map(() => 'right' as const)],
  );
  for (const metric of metrics(groups)) {
    const best = bestOf(groups.map(metric.value), metric.better);
    table.push([
      metric.label,
      ...groups.map((group, index) =>
        best.has(index) ? paint(`${metric.cell(group)} *`, 'green', color) : `${metric.cell(group)}  `,
      ),
    ]);
  }
  const { seed, resamples } = summary.statistics;
  return [
    tableToString(table),
    paint(
      `* best of the variants · [ ] 95 % interval: Wilson for rates, bootstrap for latency (seed ${seed}, ${resamples} resamples)`,
      'dim',
      color,
    ),
  ].join('\n');
}
