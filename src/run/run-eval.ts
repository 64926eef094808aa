import { setMaxListeners } from 'node:events';
import { appendFileSync } from 'node:fs';
import { appendFile, rm } from 'node:fs/promises';
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
import { attemptDir, attemptStartEvent, coordinatesOf, runAttempt, type Attempt } from '../attempt/run-attempt.js';
import { scoreAttempt } from '../scorers/index.js';
import { attemptKey } from '../types/attempt-key.js';
import { loadDurationHistory } from './duration-history.js';
import { admissionLimits, runScheduled } from './scheduler.js';
import { planAttempts } from './scheduler-order.js';
import { writeJsonAtomic } from '../trace/atomic-write.js';
import { attemptShardKey, shardOf } from './shard.js';
import { expectedDurationMs } from './expected-duration.js';
import { resultsFaultOf, type ResultsFault } from '../trace/results-fault.js';
import { HangbenchError } from '../types/errors.js';
import { prepareResultsFolder, resultsFaultLine, writeRunFile } from './results-folder.js';

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
  /** a line to show before the first attempt (the results folder has less free space than the run may need). */
  readonly onWarning?: (line: string) => void;
}

/**
 * The whole evaluation: load cases, expand case × variant × repeat, run them with bounded concurrency, summarise.
 * With `resume`, the attempts of that run folder that have a score.json are kept and only the others run.
 * A results folder that refuses a write (full, read-only, removed) stops the run: every sandbox is killed, what
 * finished stays, and the run throws one line (HangbenchError RESULTS) saying what was kept and how to resume.
 */
export async function runEval(input: EvalOptionsInput, hooks: RunHooks = {}): Promise<RunResult> {
  const shutdown = hooks.shutdown ?? new AbortController().signal;
  const resumed = input.resume === undefined ? null : await resumeRun({ ...input, resume: input.resume });
  const options = resolveOptions(resumed?.input ?? input);
  const startedAt = resumed?.meta.startedAt ?? new Date().toISOString();
  const { cases, problems } = await loadCases(options.caseInputs, options.cwd);
  stopIfAborted(shutdown);
  const capabilities = await probeHost();
  stopIfAborted(shutdown);
  // One factory per variant, made once: a bad agent setting fails here, before any attempt starts.
  const factorySettings = { cwd: options.cwd, timeScale: options.timeScale, agentEnv: options.agentEnv, agentAllowHosts: options.agentAllowHosts };
  const factories = new Map(options.variants.map((variant) => [variant.name, createAgentFactory(variant.agent, factorySettings)]));
  // Installed agents: adapters validated and packages installed once, before any attempt, so a failure is one clear error.
  for (const factory of factories.values()) await factory.installed?.prepare();
  const runDir = resumed?.runDir ?? path.resolve(options.cwd, options.out, options.runId);
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
  // --out is made, written and measured before any attempt: a typo or a full disk is one line now, not a fault later.
  const warning = await prepareResultsFolder(runDir, resumed ? runDir : options.out, pending.length);
  if (warning !== null) hooks.onWarning?.(warning);
  stopIfAborted(shutdown);
  // The seeded start order (variants of a case interleaved, longest cases first), recorded so a run's fairness can be checked.
  const plan = planAttempts(pending, options.seed, options.timeScale, await loadDurationHistory(path.resolve(options.cwd, options.out), runDir));
  const order = plan.map((planned) => attemptInfo(planned.attempt).attemptId);
  const meta = resumed ? resumedMeta(resumed) : await buildMeta(options, cases, startedAt, version, capabilities, order);
  await writeRunFile(writeJsonAtomic(path.join(runDir, 'meta.json'), meta), runDir, finished.length);

  // Every delivered tick's token count is recorded: load the tokenizer (≈ 70 MB) now, not inside the first attempt's
  // first tick — unless no variant can receive a tick (nop finishes at once).
  if (pending.length > 0 && options.variants.some((variant) => variant.agent.agent !== 'nop')) loadTokenizer();
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
  // The first fault of the results folder stops every attempt as a shutdown would: none of them could be recorded.
  let fault: ResultsFault | null = null;
  const faulted = new AbortController();
  const onFault = (found: ResultsFault): void => {
    fault ??= found;
    faulted.abort(found);
  };
  const stopAttempts = AbortSignal.any([shutdown, faulted.signal]);
  // Every running attempt listens for the shutdown: more than Node's default 10 is expected, not a leak.
  setMaxListeners(limits.maxRunning + 10, shutdown);
  setMaxListeners(limits.maxRunning + 10, stopAttempts);
  const scheduled = runScheduled(plan, limits, async (attempt) => {
    if (stopAttempts.aborted) return;
    const info = attemptInfo(attempt);
    await reporter?.onAttemptStart(info);
    // A resumed attempt starts over: what an interrupted one left (trace, command logs) would mix with the new run.
    if (resumed) await rm(attemptDir(runDir, attempt), { recursive: true, force: true });
    const scores = await runAttempt(attempt, {
      options,
      runDir,
      capabilities,
      agent: factories.get(attempt.variant.name)!,
      shutdown: stopAttempts,
      onTick: reporter ? (_, tick) => void reporter.onTick(info, tick) : undefined,
    }).catch((error: unknown) => {
      const refused = resultsFaultOf(error);
      if (refused === null) return harnessErrorScores(attemptStartEvent(attempt, options.timeScale, capabilities), error, path.join(runDir, 'errors.log'));
      onFault(refused);
      return null;
    });
    if (scores === null) return;
    if (scores.fault?.where === 'results') {
      onFault(scores.fault);
      return;
    }
    finished.push(scores);
    await reporter?.onAttemptEnd(info, scores);
  });
  // Told to stop, the run waits a moment for its attempts to be killed and cleaned up, then records what finished
  // without them: the CLI must be gone within 2 s of the signal, and an exit kills whatever is left.
  scheduled.catch(() => undefined);
  await Promise.race([scheduled, afterAbort(shutdown, SHUTDOWN_WAIT_MS)]);

  const interrupted = stopAttempts.aborted;
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
  if (fault !== null) {
    // Each file by rename: what the disk still takes is whole, what it refuses is absent; resume needs neither.
    await writeJsonAtomic(path.join(runDir, 'summary.json'), summary).catch(() => undefined);
    await writeJsonAtomic(path.join(runDir, 'meta.json'), { ...meta, interrupted }).catch(() => undefined);
    throw new HangbenchError('RESULTS', resultsFaultLine(fault, runDir, finished.length));
  }
  await writeRunFile(writeJsonAtomic(path.join(runDir, 'summary.json'), summary), runDir, finished.length);
  await writeRunFile(writeJsonAtomic(path.join(runDir, 'meta.json'), { ...meta, interrupted }), runDir, finished.length);
  // The reports are a view of the results: one that fails to render is recorded, the results stand. A run told to
  // stop skips them (they take seconds on a big run; `hangbench report DIR` renders them later).
  if (hooks.afterRun && !shutdown.aborted) {
    await hooks
      .afterRun(runDir)
      .catch((error: unknown) => appendFile(path.join(runDir, 'errors.log'), `reports: ${(error as Error).stack ?? String(error)}\n`))
      .catch(() => undefined);
  }
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

/** How long a run told to stop waits for its attempts' sandboxes to be disposed before it writes summary.json. */
const SHUTDOWN_WAIT_MS = 700;

/** Resolves `ms` after the signal aborts (never, if it does not). */
function afterAbort(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const start = () => setTimeout(resolve, ms).unref();
    if (signal.aborted) start();
    else signal.addEventListener('abort', start, { once: true });
  });
}

/** The run stops before its first attempt when told to: nothing ran, so there is nothing to keep or resume. */
function stopIfAborted(shutdown: AbortSignal): void {
  if (shutdown.aborted) throw new HangbenchError('INTERRUPTED', 'stopped before the first attempt: nothing ran');
}

/**
 * The attempt broke in the harness (its sandbox could not be set up, say): an ERROR, logged, and the run goes on.
 * Scored as the trace of an attempt that began and never ended, so `hangbench score` could not say otherwise.
 */
async function harnessErrorScores(start: ReturnType<typeof attemptStartEvent>, error: unknown, logFile: string): Promise<AttemptScores> {
  await appendFile(logFile, `${start.attemptId}: ${(error as Error).stack ?? String(error)}\n`).catch(() => undefined);
  return scoreAttempt([{ ...start, seq: 0, t: 0 }]);
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
