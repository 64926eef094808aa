import path from 'node:path';
import { DEFAULTS } from '../defaults.js';
import { signMixtureEValue } from '../stats/index.js';
import { COMPARED_METRICS } from '../summary/index.js';
import { groupBy } from '../summary/index.js';
import { pairUp } from '../summary/index.js';
import type { RunSummary } from '../summary/index.js';
import type { Sequential, SequentialComparison, SequentialRound } from '../summary/index.js';
import { writeJsonAtomic } from '../trace/atomic-write.js';
import { HangbenchError } from '../types/errors.js';
import { RUN_FILES } from '../types/run-files.js';
import type { AttemptScores } from '../types/scores.js';
import type { EvalOptionsInput } from './options.js';
import { runEval, type RunHooks, type RunResult } from './run-eval.js';
import { renderReports } from './run-record.js';

export interface SequentialOptions {
  readonly maxRepeat: number;
  /** the pre-registered metrics: every pair of variants on each is a comparison to decide */
  readonly metrics: readonly string[];
  readonly alpha?: number;
}

/**
 * Every pre-registered comparison after the attempts so far, as an always-valid sign test: the signs are a rate's
 * discordant pairs or a measured metric's non-zero paired differences; a comparison is decided once its mixture
 * e-value reaches (pairs of variants in its metric) / α (Bonferroni over the family, Vovk & Wang 2021), and stays so.
 */
export function decideComparisons(
  attempts: readonly AttemptScores[],
  metrics: readonly string[],
  alpha: number,
  round: number,
  before: readonly SequentialComparison[] = [],
): SequentialComparison[] {
  const groups = groupBy(attempts, (attempt) => attempt.variant);
  const couples = groups.flatMap((a, i) =>
    groups
      .slice(i + 1)
      .map((b) => ({ a: (a[0] as AttemptScores).variant, b: (b[0] as AttemptScores).variant, pairs: pairUp(a, b) })),
  );
  return COMPARED_METRICS.filter((metric) => metrics.includes(metric.metric)).flatMap((metric) => {
    const threshold = couples.length / alpha;
    return couples.map(({ a, b, pairs }): SequentialComparison => {
      const earlier = before.find((entry) => entry.metric === metric.metric && entry.a === a && entry.b === b);
      if (earlier?.decidedAtRound != null) return earlier;
      let [forA, signs] = [0, 0];
      for (const [left, right] of pairs) {
        const [x, y] = [metric.value(left), metric.value(right)];
        if (x === null || y === null || x === y) continue;
        signs += 1;
        // a sign favours a when a is the better side of the pair
        const aHigher = Number(x) > Number(y);
        if (aHigher === (metric.direction === 'higher')) forA += 1;
      }
      const eValue = signMixtureEValue(forA, signs);
      const decided = eValue >= threshold;
      return {
        metric: metric.metric,
        a,
        b,
        decidedAtRound: decided ? round : null,
        better: decided ? (forA * 2 > signs ? a : b) : null,
        signs,
        forA,
        eValue,
      };
    });
  });
}

function roundCost(summary: RunSummary, round: number): SequentialRound {
  const added = summary.attempts.filter((attempt) => attempt.repeat === round);
  return {
    round,
    attempts: added.length,
    wallMs: added.reduce((sum, attempt) => sum + attempt.wallMs, 0),
    tokens: added.reduce((sum, attempt) => sum + attempt.tokens, 0),
    undecided: 0,
  };
}

/**
 * `eval --repeat-until decided`: runs one repeat, then adds repeats a round at a time (the resume path, with one more
 * repeat) until every pre-registered comparison is decided or `maxRepeat` repeats ran. summary.json records which
 * comparison was decided at which round and what each round cost; the reports are rendered once, after the last round.
 */
export async function runSequential(
  input: EvalOptionsInput,
  sequential: SequentialOptions,
  hooks: RunHooks = {},
): Promise<RunResult> {
  if (input.repeat !== undefined)
    throw new HangbenchError(
      'USAGE',
      '--repeat-until decided adds repeats itself; leave out --repeat (use --max-repeat N)',
    );
  const alpha = sequential.alpha ?? DEFAULTS.alpha;
  const { afterRun, ...roundHooks } = hooks;
  let result = await runEval({ ...input, repeat: 1 }, roundHooks);
  const harnessErrors = [...result.harnessErrors];
  const rounds: SequentialRound[] = [];
  let comparisons: SequentialComparison[] = [];
  let stopped: Sequential['stopped'] = 'max-repeat';
  for (let round = 1; ; round += 1) {
    comparisons = decideComparisons(result.summary.attempts, sequential.metrics, alpha, round, comparisons);
    rounds.push({
      ...roundCost(result.summary, round),
      undecided: comparisons.filter((entry) => entry.decidedAtRound === null).length,
    });
    if (result.interrupted) {
      stopped = 'interrupted';
      break;
    }
    if (comparisons.every((entry) => entry.decidedAtRound !== null)) {
      stopped = 'decided';
      break;
    }
    if (round >= sequential.maxRepeat) break;
    const more = {
      resume: result.runDir,
      repeat: round + 1,
      ...(input.concurrency === undefined ? {} : { concurrency: input.concurrency }),
    };
    result = await runEval({ ...more, ...(input.cwd === undefined ? {} : { cwd: input.cwd }) }, roundHooks);
    harnessErrors.push(...result.harnessErrors);
  }
  const record: Sequential = {
    method: 'sign-mixture-e-value',
    alpha,
    maxRepeat: sequential.maxRepeat,
    metrics: [...sequential.metrics],
    stopped,
    rounds,
    comparisons,
  };
  const summary = { ...result.summary, sequential: record };
  await writeJsonAtomic(path.join(result.runDir, RUN_FILES.summary), summary);
  if (afterRun) await renderReports(afterRun, result.runDir);
  return { ...result, summary, harnessErrors };
}
