import { DEFAULT_BOOTSTRAP, type BootstrapOptions } from '../stats/index.js';
import type { AttemptScores } from '../types/scores.js';
import { summarizeCaseMatrix } from './case-matrix.js';
import { compareVariants } from './comparisons.js';
import { summarizeConfusion } from './confusion.js';
import { summarizeLoop } from './loop.js';
import { summarizeShellTools } from './shell-tools.js';
import { summarizeSweep } from './sweep.js';
import { summarizeStdinWiring } from './stdin-wiring.js';
import { summarizeGroup } from './group-summary.js';
import { groupBy } from './group-by.js';
import { rate } from './rates.js';
import { SUMMARY_VERSION, type ClassSummary, type RunSummary } from './schema.js';
import type { Sequential } from './schema-sequential.js';

export { rate };

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
  /** the run's seed: the bootstrap intervals are drawn from it (default 1). */
  readonly seed?: number;
  /** bootstrap resamples per interval (default 2000). */
  readonly resamples?: number;
  /** the machine's cores the run had: the CPU-bound ideal is the attempts' CPU over them. */
  readonly cores?: number;
  /** `eval --repeat-until decided`: its rounds and decisions, kept when the run is re-summarized. */
  readonly sequential?: Sequential;
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
    diagnosed: rate(
      attempts.filter((attempt) => attempt.scores.diagnosed !== null),
      'diagnosed',
    ),
  };
}

/** The run's wall against the CPU its attempts used over the cores: how far from CPU-bound the schedule was. */
function cpuBoundOf(attempts: readonly AttemptScores[], meta: SummaryMeta): Pick<RunSummary, 'cpuBound'> {
  const counted = attempts.filter((attempt) => attempt.cpuMs !== undefined);
  if (counted.length === 0 || meta.cores === undefined || meta.finishedAt === undefined) return {};
  const cpuMs = counted.reduce((sum, attempt) => sum + (attempt.cpuMs ?? 0), 0);
  const idealMs = cpuMs / meta.cores;
  const wallMs = Math.max(0, Date.parse(meta.finishedAt) - Date.parse(meta.startedAt));
  return {
    cpuBound: {
      cpuMs: Math.round(cpuMs),
      cores: meta.cores,
      idealMs: Math.round(idealMs),
      wallMs,
      ratio: idealMs > 0 ? Math.round((wallMs / idealMs) * 100) / 100 : null,
    },
  };
}

/** hang classes before control classes, then by name, then in group order. */
function byKindThenClass(a: ClassSummary, b: ClassSummary): number {
  if (a.kind !== b.kind) return a.kind === 'hang' ? -1 : 1;
  return a.class < b.class ? -1 : a.class > b.class ? 1 : 0;
}

/**
 * The run's summary.json: per variant rates with Wilson intervals, pass@k and latency intervals, a per-class
 * breakdown, per-metric paired effects and tests between every two variants, the sweep (when the variants form one),
 * the case × variant matrix, and every attempt's scores.
 */
export function summarize(attempts: readonly AttemptScores[], meta: SummaryMeta): RunSummary {
  const bootstrap: BootstrapOptions = {
    seed: meta.seed ?? DEFAULT_BOOTSTRAP.seed,
    resamples: meta.resamples ?? DEFAULT_BOOTSTRAP.resamples,
  };
  const groups = groupBy(attempts, (attempt) => attempt.variant);
  const summaries = groups.map((group) => summarizeGroup(group, bootstrap));
  const classes = groups.flatMap((group) => groupBy(group, (attempt) => attempt.class).map(summarizeClass));
  const stdinWiring = summarizeStdinWiring(meta.options ?? {}, attempts);
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
    ...cpuBoundOf(attempts, meta),
    groups: summaries,
    classes: classes.sort(byKindThenClass),
    confusion: summarizeConfusion(attempts),
    statistics: { seed: bootstrap.seed, resamples: bootstrap.resamples },
    comparisons: compareVariants(groups, bootstrap),
    sweep: summarizeSweep(meta.options ?? {}, summaries),
    caseMatrix: summarizeCaseMatrix(attempts),
    loop: summarizeLoop(attempts),
    ...(meta.sequential === undefined ? {} : { sequential: meta.sequential }),
    shellTools: summarizeShellTools(attempts),
    ...(stdinWiring.length > 0 ? { stdinWiring } : {}),
    attempts: attempts.map((attempt) => structuredClone(attempt)),
  };
}
