import { setMaxListeners } from 'node:events';
import { appendFileSync } from 'node:fs';
import { appendFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { createAgentFactory } from '../agents/registry.js';
import { loadTokenizer } from '../agents/tokens.js';
import { summarize } from '../summary/summarize.js';
import { fanOut, type Reporter, type ReporterFailure } from './reporter-hooks.js';
import type { RunSummary } from '../summary/schema.js';
import { probeHost } from '../sandbox/index.js';
import type { HostCapabilities } from '../sandbox/types.js';
import type { Case } from '../types/case.js';
import { caseClass } from '../types/case.js';
import type { CaseProblem } from '../types/errors.js';
import type { AttemptScores } from '../types/scores.js';
import { loadCases } from '../cases/load-cases.js';
import { gitSha, hangbenchVersion, META_VERSION, RunMetaSchema, type RunMeta } from './meta.js';
import { resolveOptions, type EvalOptions, type EvalOptionsInput } from './options.js';
import { checkResumable, finishedScores, resumeRun, type ResumedRun } from './resume.js';
import { attemptDir, coordinatesOf, runAttempt, type Attempt } from '../attempt/run-attempt.js';
import { attemptKey } from '../types/attempt-key.js';
import { loadDurationHistory } from './duration-history.js';
import { admissionLimits, runScheduled } from './scheduler.js';
import { planAttempts } from './scheduler-order.js';
import { writeJsonAtomic } from '../trace/atomic-write.js';
import { attemptShardKey, shardOf } from './shard.js';
import { expectedDurationMs } from './expected-duration.js';

export interface RunResult {
  readonly runDir: string;
  readonly summary: RunSummary;
  readonly problems: readonly CaseProblem[];
  /** true when the harness was told to stop before every attempt ran; `resume` runs the rest. */
  readonly interrupted: boolean;
}

export interface RunHooks {
  /** called in order on every hook; the run fans them out (once, here). */
  readonly reporters?: readonly Reporter[];
  /** a reporter's hook threw or rejected: it is in errors.log, and told here too (the CLI prints it). */
  readonly onReporterError?: (failure: ReporterFailure) => void;
  /** abort to shut the run down: every sandbox is killed, finished results are kept. */
  readonly shutdown?: AbortSignal;
  /** once summary.json and meta.json are written: the CLI renders report.md, junit.xml and report.html here. */
  readonly afterRun?: (runDir: string) => Promise<unknown>;
}

/**
 * The whole evaluation: load cases, expand case × variant × repeat, run them with bounded concurrency, summarise.
 * With `resume`, the attempts of that run folder that have a score.json are kept and only the others run.
 */
export async function runEval(input: EvalOptionsInput, hooks: RunHooks = {}): Promise<RunResult> {
  const resumed = input.resume === undefined ? null : await resumeRun({ ...input, resume: input.resume });
  const options = resolveOptions(resumed?.input ?? input);
  const startedAt = resumed?.meta.startedAt ?? new Date().toISOString();
  const { cases, problems } = await loadCases(options.caseInputs, options.cwd);
  const capabilities = await probeHost();
  // One factory per variant, made once: a bad agent setting fails here, before any attempt starts.
  const factorySettings = { cwd: options.cwd, timeScale: options.timeScale, agentEnv: options.agentEnv, agentAllowHosts: options.agentAllowHosts };
  const factories = new Map(options.variants.map((variant) => [variant.name, createAgentFactory(variant.agent, factorySettings)]));
  // Installed agents: adapters validated and packages installed once, before any attempt, so a failure is one clear error.
  for (const factory of factories.values()) await factory.installed?.prepare();
  const runDir = resumed?.runDir ?? path.resolve(options.cwd, options.out, options.runId);
  await mkdir(runDir, { recursive: true });
  const version = await hangbenchVersion();
  if (resumed) checkResumable(resumed, cases, version);
  const expanded = expand(cases, options);
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
  // The seeded start order (variants of a case interleaved, longest cases first), recorded so a run's fairness can be checked.
  const plan = planAttempts(pending, options.seed, options.timeScale, await loadDurationHistory(path.resolve(options.cwd, options.out), runDir));
  const order = plan.map((planned) => attemptInfo(planned.attempt).attemptId);
  const meta = resumed ? resumedMeta(resumed) : await buildMeta(options, cases, startedAt, version, capabilities, order);
  await writeJsonAtomic(path.join(runDir, 'meta.json'), meta);

  // Every delivered tick's token count is recorded: load the tokenizer (≈ 70 MB) now, not inside the first attempt's
  // first tick — unless no variant can receive a tick (nop finishes at once).
  if (pending.length > 0 && options.variants.some((variant) => variant.agent.agent !== 'nop')) loadTokenizer();
  const shutdown = hooks.shutdown ?? new AbortController().signal;
  // A reporter that throws is recorded and the run goes on.
  const reporter =
    hooks.reporters && hooks.reporters.length > 0
      ? fanOut(hooks.reporters, (failure) => {
          appendFileSync(path.join(runDir, 'errors.log'), `reporter ${failure.reporter} failed in ${failure.hook}: ${String(failure.error)}\n`);
          hooks.onReporterError?.(failure);
        })
      : undefined;
  await reporter?.onRunStart({ runId: options.runId, startedAt, attempts: pending.length });
  const limits = admissionLimits(options.concurrency);
  // Every running attempt listens for the shutdown: more than Node's default 10 is expected, not a leak.
  setMaxListeners(limits.maxRunning + 10, shutdown);
  await runScheduled(plan, limits, async (attempt) => {
    if (shutdown.aborted) return;
    const info = attemptInfo(attempt);
    await reporter?.onAttemptStart(info);
    // A resumed attempt starts over: what an interrupted one left (trace, command logs) would mix with the new run.
    if (resumed) await rm(attemptDir(runDir, attempt), { recursive: true, force: true });
    const scores = await runAttempt(attempt, {
      options,
      runDir,
      capabilities,
      agent: factories.get(attempt.variant.name)!,
      shutdown,
      onTick: reporter ? (_, tick) => void reporter.onTick(info, tick) : undefined,
    }).catch((error: unknown) => harnessErrorScores(attempt, error, path.join(runDir, 'errors.log')));
    if (scores === null) return;
    finished.push(scores);
    await reporter?.onAttemptEnd(info, scores);
  });

  const interrupted = shutdown.aborted;
  const caseOrder = new Map(attempts.map((attempt, index) => [attemptInfo(attempt).attemptId, index]));
  finished.sort((a, b) => (caseOrder.get(attemptKey(a)) ?? 0) - (caseOrder.get(attemptKey(b)) ?? 0));
  const summary = summarize(finished, {
    runId: options.runId,
    startedAt,
    finishedAt: new Date().toISOString(),
    hangbenchVersion: version,
    interrupted,
    options: publicOptions(options),
    seed: options.seed,
  });
  await writeJsonAtomic(path.join(runDir, 'summary.json'), summary);
  await writeJsonAtomic(path.join(runDir, 'meta.json'), { ...meta, interrupted });
  // The reports are a view of the results: one that fails to render is recorded, the results stand.
  if (hooks.afterRun) await hooks.afterRun(runDir).catch((error: unknown) => appendFile(path.join(runDir, 'errors.log'), `reports: ${(error as Error).stack ?? String(error)}\n`));
  await reporter?.onRunEnd(summary);
  return { runDir, summary, problems, interrupted };
}

function resumedMeta({ meta }: ResumedRun): RunMeta {
  return { ...meta, resumedAt: [...(meta.resumedAt ?? []), new Date().toISOString()] };
}

/** Attempts = case × variant × repeat. */
function expand(cases: readonly Case[], options: EvalOptions): Attempt[] {
  return cases.flatMap((testCase) =>
    options.variants.flatMap((variant) => Array.from({ length: options.repeat }, (_, index) => ({ testCase, variant, repeat: index + 1 }))),
  );
}

function attemptInfo(attempt: Attempt) {
  const { testCase, variant, repeat } = attempt;
  return {
    attemptId: attemptKey(coordinatesOf(attempt)),
    caseId: testCase.id,
    kind: testCase.kind,
    class: caseClass(testCase),
    variant: variant.name,
    agent: variant.agent.agent,
    repeat,
  };
}

/** The attempt could not even be set up (sandbox, disk): an ERROR, recorded, and the run goes on. */
async function harnessErrorScores(attempt: Attempt, error: unknown, logFile: string): Promise<AttemptScores> {
  const info = attemptInfo(attempt);
  await appendFile(logFile, `${info.attemptId}: ${(error as Error).stack ?? String(error)}\n`);
  return {
    caseId: info.caseId,
    kind: info.kind,
    class: info.class,
    variant: info.variant,
    agent: info.agent,
    repeat: info.repeat,
    outcome: 'error',
    scores: {
      reproduced: info.kind === 'hang' ? false : null,
      interrupted: info.kind === 'hang' ? false : null,
      interrupt_latency: null,
      fixed: false,
      false_kill: info.kind === 'control' ? false : null,
      completed: info.kind === 'control' ? false : null,
      within_budget: false,
      clean: false,
      solved: false,
      gates_passed: attempt.testCase.gates.length > 0 ? false : null,
      gate_rounds: attempt.testCase.gates.length > 0 ? 0 : null,
      hint_given: attempt.testCase.hints.length > 0 ? false : null,
      hint_to_action: null,
      diagnosed: info.kind === 'hang' && attempt.testCase.kind === 'hang' && attempt.testCase.hang.culprit ? false : null,
    },
    ticks: 0,
    tokens: 0,
    wallMs: 0,
    classificationAtEnd: null,
  };
}

function publicOptions(options: EvalOptions): Record<string, unknown> {
  const { cwd: _cwd, ...rest } = options;
  return rest;
}

/** Validated on the way out as on the way in, so a run never records a meta.json its own readers would refuse. */
async function buildMeta(options: EvalOptions, cases: readonly Case[], startedAt: string, version: string, host: HostCapabilities, order: readonly string[]): Promise<RunMeta> {
  return RunMetaSchema.parse({
    metaVersion: META_VERSION,
    runId: options.runId,
    startedAt,
    options,
    cases: cases.map((testCase) => ({ id: testCase.id, file: path.relative(options.cwd, testCase.file), kind: testCase.kind })),
    versions: { hangbench: version, node: process.version, platform: `${process.platform}-${process.arch}`, gitSha: await gitSha(options.cwd) },
    host,
    order,
  });
}
