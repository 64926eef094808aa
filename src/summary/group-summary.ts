import {
  bootstrapPercentiles,
  hashString,
  mean,
  passAtKCurve,
  percentile,
  type BootstrapOptions,
} from '../stats/index.js';
import { RATE_NAMES, type AttemptScores, type RateName } from '../types/scores.js';
import { groupBy } from './group-by.js';
import { rate } from './rates.js';
import type { GroupRate, GroupSummary } from './schema.js';
import { countsOver, RATE_METRICS } from './compared-metrics.js';

/** One variant's rates with Wilson intervals, pass@k, latency percentiles with bootstrap intervals, and cost. */
export function summarizeGroup(attempts: readonly AttemptScores[], bootstrap: BootstrapOptions): GroupSummary {
  const [first] = attempts as [AttemptScores];
  const hangs = attempts.filter((attempt) => attempt.kind === 'hang');
  const controls = attempts.filter((attempt) => attempt.kind === 'control');
  const latencies = hangs.flatMap((attempt) => attempt.scores.interrupt_latency ?? []);
  // Seeded per variant name, so a variant's intervals do not change when other variants join the run.
  const [p50Interval, p90Interval] = bootstrapPercentiles(latencies, [50, 90], {
    seed: (bootstrap.seed ^ hashString(first.variant)) >>> 0,
    resamples: bootstrap.resamples,
  });
  const ticks = attempts.reduce((sum, attempt) => sum + attempt.ticks, 0);
  const tokens = attempts.reduce((sum, attempt) => sum + attempt.tokens, 0);
  const perCase = groupBy(attempts, (attempt) => attempt.caseId).map((runs) => ({
    attempts: runs.length,
    solved: runs.filter((attempt) => attempt.scores.solved).length,
  }));
  return {
    agent: first.agent,
    variant: first.variant,
    attempts: attempts.length,
    hangAttempts: hangs.length,
    controlAttempts: controls.length,
    errors: attempts.filter((attempt) => attempt.outcome === 'error').length,
    ...rates(attempts),
    passAtK: passAtKCurve(perCase),
    interruptLatencyMs: {
      count: latencies.length,
      p50: percentile(latencies, 50),
      p50Low: p50Interval?.low ?? null,
      p50High: p50Interval?.high ?? null,
      p90: percentile(latencies, 90),
      p90Low: p90Interval?.low ?? null,
      p90High: p90Interval?.high ?? null,
    },
    ticksPerAttempt: mean(attempts.map((attempt) => attempt.ticks)),
    tokensPerTick: ticks === 0 ? null : tokens / ticks,
    tokensPerAttempt: mean(attempts.map((attempt) => attempt.tokens)),
    wallMsPerAttempt: mean(attempts.map((attempt) => attempt.wallMs)),
  };
}

/**
 * Every rate over the attempts its entry of the metric table counts over, with its Wilson interval, in the table's
 * order; a rate of RATE_NAMES that the table lacks throws rather than leaving the group without it.
 */
function rates(attempts: readonly AttemptScores[]): Record<RateName, GroupRate> {
  const byName = new Map<RateName, GroupRate>();
  for (const { metric, over } of RATE_METRICS)
    byName.set(metric, {
      ...rate(
        attempts.filter((attempt) => countsOver(over, attempt)),
        metric,
      ),
      over,
    });
  const missing = RATE_NAMES.filter((name) => !byName.has(name));
  if (missing.length > 0) throw new Error(`the metric table has no rate ${missing.join(', ')}`);
  return Object.fromEntries(byName) as Record<RateName, GroupRate>;
}
