import path from 'node:path';
import { createAgentFactory } from '../agents/registry.js';
import type { AgentFactory } from '../agents/protocol.js';
import { attemptDir, type Attempt } from '../attempt/run-attempt.js';
import { loadCases } from '../cases/load-cases.js';
import { applyHarnessNice, probeHost } from '../sandbox/index.js';
import type { HostCapabilities } from '../sandbox/index.js';
import type { Case } from '../types/case.js';
import type { CaseProblem } from '../types/errors.js';
import { HangbenchError } from '../types/errors.js';
import type { AttemptScores } from '../types/scores.js';
import { loadDurationHistory } from './duration-history.js';
import { expectedDurationMs } from './expected-duration.js';
import { hangbenchVersion } from './meta.js';
import { resolveOptions, type EvalOptions, type EvalOptionsInput } from './options.js';
import { checkResumable, finishedScores, resumeRun, type ResumedRun } from './resume.js';
import { prepareResultsFolder } from './results-folder.js';
import { planAttempts, type PlannedAttempt } from './scheduler-order.js';
import { admissionLimits, admissionNote } from './scheduler.js';
import { attemptShardKey, shardOf } from './shard.js';

/** The load phase: the options resolved (a resumed run's own), the cases, the host, one agent factory per variant. */
export interface LoadedRun {
  readonly resumed: ResumedRun | null;
  readonly options: EvalOptions;
  readonly startedAt: string;
  readonly cases: readonly Case[];
  readonly problems: readonly CaseProblem[];
  readonly capabilities: HostCapabilities;
  readonly factories: ReadonlyMap<string, AgentFactory>;
  readonly runDir: string;
  readonly version: string;
}

export async function loadRun(input: EvalOptionsInput, shutdown: AbortSignal): Promise<LoadedRun> {
  const resumed = input.resume === undefined ? null : await resumeRun({ ...input, resume: input.resume });
  const options = resolveOptions(resumed?.input ?? input);
  const startedAt = resumed?.meta.startedAt ?? new Date().toISOString();
  const { cases, problems } = await loadCases(options.caseInputs, options.cwd);
  stopIfAborted(shutdown);
  const capabilities = await probeHost();
  stopIfAborted(shutdown);
  const factories = await prepareAgents(options);
  const runDir = resumed?.runDir ?? path.resolve(options.cwd, options.out, options.runId);
  const version = await hangbenchVersion();
  if (resumed) checkResumable(resumed, cases, version);
  return { resumed, options, startedAt, cases, problems, capabilities, factories, runDir, version };
}

/** One factory per variant, made once: a bad agent setting fails here, before any attempt starts. */
async function prepareAgents(options: EvalOptions): Promise<ReadonlyMap<string, AgentFactory>> {
  const settings = {
    cwd: options.cwd,
    timeScale: options.timeScale,
    agentEnv: options.agentEnv,
    agentAllowHosts: options.agentAllowHosts,
  };
  const factories = new Map(
    options.variants.map((variant) => [variant.name, createAgentFactory(variant.agent, settings)]),
  );
  // Installed agents: adapters validated and packages installed once, before any attempt, so a failure is one clear error.
  for (const factory of factories.values()) if (factory.kind === 'installed') await factory.installed.prepare();
  return factories;
}

/** The plan phase: this shard's attempts, those a resumed run already finished, and the seeded order of the rest. */
export interface RunPlan {
  /** every attempt of this run (or shard), in case order. */
  readonly attempts: readonly Attempt[];
  /** the scores of those a resumed run already finished. */
  readonly finished: readonly AttemptScores[];
  readonly pending: readonly Attempt[];
  readonly order: readonly PlannedAttempt<Attempt>[];
}

export async function planRun(
  loaded: LoadedRun,
  shutdown: AbortSignal,
  onWarning?: (line: string) => void,
): Promise<RunPlan> {
  const { options, resumed, runDir } = loaded;
  const expanded = expand(loaded.cases, options);
  // One deterministic slice of the attempts, balanced by expected duration: `hangbench merge` joins the slices.
  // The weight is the estimate from the case and variant alone (no learned history): every shard, on whatever machine,
  // must compute the same split.
  const weight = (attempt: Attempt): number => expectedDurationMs(attempt.testCase, attempt.variant, options.timeScale);
  const attempts = options.shard ? shardOf(expanded, options.shard, weight, attemptShardKey) : expanded;
  const finished: AttemptScores[] = [];
  const pending: Attempt[] = [];
  for (const attempt of attempts) {
    const recorded = resumed ? await finishedScores(attemptDir(runDir, attempt)) : null;
    if (recorded) finished.push(recorded);
    else pending.push(attempt);
  }
  // --out is made, written and measured before any attempt: a typo or a full disk is one line now, not a fault later.
  const refused = applyHarnessNice();
  if (refused !== null) onWarning?.(refused);
  const warning = await prepareResultsFolder(runDir, resumed ? runDir : options.out, pending.length);
  if (warning !== null) onWarning?.(warning);
  stopIfAborted(shutdown);
  // The seeded start order (variants of a case interleaved, longest cases first), recorded so a run's fairness can be checked.
  const order = planAttempts(
    pending,
    options.seed,
    options.timeScale,
    await loadDurationHistory(path.resolve(options.cwd, options.out), runDir),
  );
  const admission = admissionNote(
    order,
    admissionLimits(options.concurrency),
    options.timeScale,
    undefined,
    options.concurrency,
  );
  if (admission !== null) onWarning?.(admission);
  return { attempts, finished, pending, order };
}

/** Attempts = case × variant × repeat. */
function expand(cases: readonly Case[], options: EvalOptions): Attempt[] {
  return cases.flatMap((testCase) =>
    options.variants.flatMap((variant) =>
      Array.from({ length: options.repeat }, (_, index) => ({ testCase, variant, repeat: index + 1 })),
    ),
  );
}

/** The run stops before its first attempt when told to: nothing ran, so there is nothing to keep or resume. */
function stopIfAborted(shutdown: AbortSignal): void {
  if (shutdown.aborted) throw new HangbenchError('INTERRUPTED', 'stopped before the first attempt: nothing ran');
}
