import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';
import type { VariantSpec } from '../../src/types/variant.js';
import type { AttemptScores } from '../../src/types/scores.js';
import { controlAttempt, hangAttempt } from '../report/attempt-fixtures.js';

const spec = (mode: 'interval' | 'no-output' | 'poll', seconds: number, hungTicks = 2): VariantSpec => {
  const monitor =
    mode === 'interval'
      ? { mode, everyMs: seconds * 1000 }
      : mode === 'no-output'
        ? { mode, afterMs: seconds * 1000 }
        : { mode };
  return {
    name: `baseline-k${hungTicks}·${mode}${mode === 'poll' ? '' : `-${seconds}s`}`,
    agent: { agent: 'baseline', hungTicks },
    monitor,
  } as VariantSpec;
};

/** Each variant: two hangs killed `latency` after onset (or not at all), and two controls, `kills` of them killed. */
function attemptsOf(variant: VariantSpec, latency: number | null, kills: number): AttemptScores[] {
  return [
    ...[1, 2].map((repeat) =>
      hangAttempt(
        { variant: variant.name, repeat },
        {
          interrupted: latency !== null,
          interrupt_latency: latency === null ? null : latency + repeat * 100,
          solved: latency !== null,
        },
      ),
    ),
    ...[1, 2].map((repeat) =>
      controlAttempt(
        { variant: variant.name, repeat },
        repeat <= kills ? { false_kill: true, completed: false, solved: false } : {},
      ),
    ),
  ];
}

const META = { runId: 'sweep', startedAt: '2026-12-01T00:00:00Z' };

describe('the sweep in summary.json', () => {
  const variants = [
    spec('interval', 1),
    spec('interval', 2),
    spec('interval', 4),
    spec('no-output', 1),
    spec('no-output', 2),
    spec('no-output', 4),
    spec('poll', 0),
  ];
  const outcomes: Record<string, [number | null, number]> = {
    'baseline-k2·interval-1s': [1000, 2],
    'baseline-k2·interval-2s': [2000, 1],
    'baseline-k2·interval-4s': [4000, 0],
    'baseline-k2·no-output-1s': [1500, 2],
    'baseline-k2·no-output-2s': [3000, 0],
    'baseline-k2·no-output-4s': [null, 0],
    'baseline-k2·poll': [500, 0],
  };
  const attempts = variants.flatMap((variant) => attemptsOf(variant, ...outcomes[variant.name]!));
  const summary = summarize(attempts, { ...META, options: { variants } });

  it('finds the interval axis, one line per mode, points in axis order; a mode without a period is left out', () => {
    expect(summary.sweep?.axis).toBe('interval');
    expect(summary.sweep?.unit).toBe('ms');
    expect(summary.sweep?.lines.map((line) => [line.label, line.points.map((point) => point.x)])).toEqual([
      ['interval', [1000, 2000, 4000]],
      ['no-output', [1000, 2000, 4000]],
    ]);
  });

  it('carries each point’s latency p50 with its interval and its two rates', () => {
    const point = summary.sweep?.lines[0]?.points[1];
    expect(point).toMatchObject({
      variant: 'baseline-k2·interval-2s',
      latencyP50: 2100,
      interrupted: { count: 2, total: 2 },
      false_kill: { count: 1, total: 2 },
    });
    expect(point?.latencyLow).toBeLessThanOrEqual(2100);
    expect(point?.latencyHigh).toBeGreaterThanOrEqual(2100);
    expect(summary.sweep?.lines[1]?.points[2]).toMatchObject({ latencyP50: null, latencyLow: null });
  });

  it('marks the Pareto front of latency p50 and false-kill rate, both lower better', () => {
    const front = summary.sweep?.lines.flatMap((line) =>
      line.points.filter((point) => point.pareto).map((point) => point.variant),
    );
    // interval-1s is fastest; interval-2s kills half; no-output-2s is the fastest with no kill; interval-4s and
    // no-output-4s have no kill but are slower (never interrupting counts as slowest); no-output-1s is dominated by interval-1s
    expect(front).toEqual(['baseline-k2·interval-1s', 'baseline-k2·interval-2s', 'baseline-k2·no-output-2s']);
  });

  it('uses the baseline’s hung ticks as the axis when the period is the same everywhere', () => {
    const patience = [spec('interval', 2, 1), spec('interval', 2, 2), spec('interval', 2, 4)];
    const run = summarize(
      patience.flatMap((variant, index) => attemptsOf(variant, 1000 * (index + 1), 0)),
      { ...META, options: { variants: patience } },
    );
    expect(run.sweep).toMatchObject({ axis: 'hung-ticks', unit: 'ticks' });
    expect(run.sweep?.lines.map((line) => [line.label, line.points.map((point) => point.x)])).toEqual([
      ['interval', [1, 2, 4]],
    ]);
  });

  it('names lines by what else differs between them', () => {
    const grid = [spec('interval', 1, 1), spec('interval', 2, 1), spec('interval', 1, 4), spec('interval', 2, 4)];
    const run = summarize(
      grid.flatMap((variant) => attemptsOf(variant, 1000, 0)),
      { ...META, options: { variants: grid } },
    );
    expect(run.sweep?.lines.map((line) => line.label)).toEqual(['interval · k1', 'interval · k4']);
  });

  it('is null without two values on any axis, or without variant specs in the options', () => {
    const two = [spec('interval', 2), spec('no-output', 2)];
    expect(
      summarize(
        two.flatMap((variant) => attemptsOf(variant, 1000, 0)),
        { ...META, options: { variants: two } },
      ).sweep,
    ).toBeNull();
    expect(summarize(attempts, META).sweep).toBeNull();
    expect(summarize(attempts, { ...META, options: { variants: 'not specs' } }).sweep).toBeNull();
  });
});
