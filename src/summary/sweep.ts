import { z } from 'zod';
import { modePeriodMs, withModePeriod } from '../modes/index.js';
import { VariantSpecSchema, type VariantSpec } from '../types/variant.js';
import type { GroupSummary } from './schema.js';
import type { Sweep, SweepPoint } from './schema-comparisons.js';

interface Axis {
  readonly name: Sweep['axis'];
  readonly unit: Sweep['unit'];
  readonly value: (variant: VariantSpec) => number | null;
  /** the variant with the axis taken out: variants equal on it lie on one line */
  readonly rest: (variant: VariantSpec) => unknown;
}

const AXES: readonly Axis[] = [
  {
    name: 'interval',
    unit: 'ms',
    value: (variant) => modePeriodMs(variant.monitor),
    rest: ({ name: _name, ...variant }) => ({ ...variant, monitor: withModePeriod(variant.monitor, 0) }),
  },
  {
    name: 'hung-ticks',
    unit: 'ticks',
    value: (variant) => (variant.agent.agent === 'baseline' ? variant.agent.hungTicks : null),
    rest: ({ name: _name, ...variant }) => ({ ...variant, agent: { agent: variant.agent.agent } }),
  },
];

/** The settings a line can differ in, as short words ('' when unset, so positions line up); the mode always names the line. */
function settings(variant: VariantSpec, axis: Axis): { mode: string; others: string[] } {
  const { agent } = variant;
  const agentWord =
    agent.agent === 'baseline'
      ? axis.name === 'hung-ticks'
        ? 'baseline'
        : `k${agent.hungTicks}`
      : agent.agent === 'openai'
        ? `openai ${agent.prompt}${agent.model ? ` ${agent.model}` : ''}`
        : agent.agent;
  const others = [
    agentWord,
    variant.hints === false ? 'hints off' : '',
    variant.budgets ? `budgets ${JSON.stringify(variant.budgets)}` : '',
  ];
  return { mode: variant.monitor.mode, others };
}

/**
 * The run's variants as a sweep: the first axis (mode period, then the baseline's hung ticks) along which some line of
 * otherwise equal variants takes two or more values. Variants without a value on the axis (poll, wait-pid) are left
 * out. null when the run's options hold no variant specs (an old or hand-made summary) or no axis qualifies.
 */
export function summarizeSweep(
  options: Readonly<Record<string, unknown>>,
  groups: readonly GroupSummary[],
): Sweep | null {
  const parsed = z.array(VariantSpecSchema).safeParse(options.variants);
  if (!parsed.success) return null;
  const byName = new Map(groups.map((group) => [group.variant, group]));
  const variants = parsed.data.filter((variant) => byName.has(variant.name));
  for (const axis of AXES) {
    const lines = new Map<string, VariantSpec[]>();
    for (const variant of variants) {
      if (axis.value(variant) === null) continue;
      const key = JSON.stringify(axis.rest(variant));
      lines.set(key, [...(lines.get(key) ?? []), variant]);
    }
    const spans = [...lines.values()].some((line) => new Set(line.map(axis.value)).size >= 2);
    if (!spans) continue;
    const points = new Map<string, SweepPoint>();
    for (const variant of [...lines.values()].flat())
      points.set(variant.name, point(variant, axis.value(variant) as number, byName.get(variant.name) as GroupSummary));
    markPareto([...points.values()]);
    const labels = lineLabels([...lines.values()], axis);
    return {
      axis: axis.name,
      unit: axis.unit,
      lines: [...lines.values()].map((line, index) => ({
        label: labels[index] as string,
        points: line.map((variant) => points.get(variant.name) as SweepPoint).sort((p, q) => p.x - q.x),
      })),
    };
  }
  return null;
}

function point(variant: VariantSpec, x: number, group: GroupSummary): SweepPoint {
  const { over: _hangs, ...interrupted } = group.interrupted;
  const { over: _controls, ...falseKill } = group.false_kill;
  const latency = group.interruptLatencyMs;
  return {
    variant: variant.name,
    x,
    latencyP50: latency.p50,
    latencyLow: latency.p50Low,
    latencyHigh: latency.p50High,
    interrupted,
    false_kill: falseKill,
    pareto: false,
  };
}

/** A line is named by its mode and whatever else differs between the lines; the first variant's name if that collides. */
function lineLabels(lines: ReadonlyArray<readonly VariantSpec[]>, axis: Axis): string[] {
  const words = lines.map((line) => settings(line[0] as VariantSpec, axis));
  const varying = (index: number): boolean => new Set(words.map((word) => word.others[index] ?? '')).size > 1;
  const labels = words.map((word) =>
    [word.mode, ...word.others.filter((text, index) => text !== '' && varying(index))].join(' · '),
  );
  return new Set(labels).size === labels.length ? labels : lines.map((line) => (line[0] as VariantSpec).name);
}

/**
 * Pareto front on (interrupt latency p50, false-kill rate), both lower better. A variant that never interrupted has
 * no latency and counts as slowest; a run without controls has no false-kill rate and every variant counts as 0.
 */
function markPareto(points: SweepPoint[]): void {
  const latency = (p: SweepPoint): number => p.latencyP50 ?? Number.POSITIVE_INFINITY;
  const kills = (p: SweepPoint): number => p.false_kill.rate ?? 0;
  for (const candidate of points) {
    candidate.pareto = !points.some(
      (other) =>
        other !== candidate &&
        latency(other) <= latency(candidate) &&
        kills(other) <= kills(candidate) &&
        (latency(other) < latency(candidate) || kills(other) < kills(candidate)),
    );
  }
}
