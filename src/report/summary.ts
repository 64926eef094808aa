import type { AttemptScores } from '../types/scores.js';
import { mean, percentile, wilson } from '../scorers/stats.js';
import { summarizeConfusion } from './confusion.js';
import {
  SUMMARY_VERSION,
  type ClassSummary,
  type GroupSummary,
  type Rate,
  type RunSummary,
} from './summary-schema.js';

export interface SummaryMeta {
  readonly runId: string;
  /** ISO time the run started. */
  readonly startedAt: string;
  readonly finishedAt?: string;
  readonly hangbenchVersion?: string;
  /** the harness was stopped before every attempt ran. */
  readonly interrupted?: boolean;
  /** the resolved run options, as they should appear in summary.json. */
  readonly options?: Readonly<Record<string, unknown>>;
}

type ScoreName = keyof AttemptScores['scores'];

export function rate(attempts: readonly AttemptScores[], score: ScoreName): Rate {
  const count = attempts.filter((attempt) => attempt.scores[score] === true).length;
  const interval = wilson(count, attempts.length);
  return {
    count,
    total: attempts.length,
    rate: attempts.length === 0 ? null : count / attempts.length,
    low: interval?.low ?? null,
    high: interval?.high ?? null,
  };
}

/** Groups in order of first appearance, keyed by the given fields. */
function groupBy(attempts: readonly AttemptScores[], key: (attempt: AttemptScores) => string): AttemptScores[][] {
  const groups = new Map<string, AttemptScores[]>();
  for (const attempt of attempts) {
    const k = key(attempt);
    const group = groups.get(k);
    if (group) group.push(attempt);
    else groups.set(k, [attempt]);
  }
  return [...groups.values()];
}

const groupKey = (attempt: AttemptScores): string => JSON.stringify([attempt.agent, attempt.variant]);

function summarizeGroup(attempts: AttemptScores[]): GroupSummary {
  const [first] = attempts as [AttemptScores];
  const hangs = attempts.filter((attempt) => attempt.kind === 'hang');
  const controls = attempts.filter((attempt) => attempt.kind === 'control');
  const latencies = hangs.flatMap((attempt) => attempt.scores.interrupt_latency ?? []);
  return {
    agent: first.agent,
    variant: first.variant,
    attempts: attempts.length,
    hangAttempts: hangs.length,
    controlAttempts: controls.length,
    errors: attempts.filter((attempt) => attempt.outcome === 'error').length,
    solved: rate(attempts, 'solved'),
    reproduced: rate(hangs, 'reproduced'),
    interrupted: rate(hangs, 'interrupted'),
    false_kill: rate(controls, 'false_kill'),
    completed: rate(controls, 'completed'),
    fixed: rate(attempts, 'fixed'),
    clean: rate(attempts, 'clean'),
    within_budget: rate(attempts, 'within_budget'),
    interruptLatencyMs: { count: latencies.length, p50: percentile(latencies, 50), p90: percentile(latencies, 90) },
    ticksPerAttempt: mean(attempts.map((attempt) => attempt.ticks)),
    tokensPerAttempt: mean(attempts.map((attempt) => attempt.tokens)),
    wallMsPerAttempt: mean(attempts.map((attempt) => attempt.wallMs)),
  };
}

function summarizeClass(attempts: AttemptScores[]): ClassSummary {
  const [first] = attempts as [AttemptScores];
  return {
    class: first.class,
    kind: first.kind,
    agent: first.agent,
    variant: first.variant,
    attempts: attempts.length,
    solved: rate(attempts, 'solved'),
    interrupted: rate(
      attempts.filter((attempt) => attempt.kind === 'hang'),
      'interrupted',
    ),
    falseKills: attempts.filter((attempt) => attempt.scores.false_kill === true).length,
  };
}

/** hang classes before control classes, then by name, then in group order. */
function byKindThenClass(a: ClassSummary, b: ClassSummary): number {
  if (a.kind !== b.kind) return a.kind === 'hang' ? -1 : 1;
  return a.class < b.class ? -1 : a.class > b.class ? 1 : 0;
}

/** The run's summary.json: per agent/variant rates with Wilson intervals, a per-class breakdown, and every attempt's scores. */
export function summarize(attempts: readonly AttemptScores[], meta: SummaryMeta): RunSummary {
  const groups = groupBy(attempts, groupKey);
  const classes = groups.flatMap((group) => groupBy(group, (attempt) => attempt.class).map(summarizeClass));
  return {
    summaryVersion: SUMMARY_VERSION,
    runId: meta.runId,
    startedAt: meta.startedAt,
    finishedAt: meta.finishedAt ?? null,
    hangbenchVersion: meta.hangbenchVersion ?? null,
    interrupted: meta.interrupted ?? false,
    options: { ...meta.options },
    totals: {
      attempts: attempts.length,
      solved: attempts.filter((attempt) => attempt.scores.solved).length,
      errors: attempts.filter((attempt) => attempt.outcome === 'error').length,
    },
    groups: groups.map(summarizeGroup),
    classes: classes.sort(byKindThenClass),
    confusion: summarizeConfusion(attempts),
    attempts: attempts.map((attempt) => structuredClone(attempt)),
  };
}
