import { setMaxListeners } from 'node:events';
import { appendFileSync } from 'node:fs';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createAgentFactory } from '../agents/registry.js';
import { summarize } from '../report/summary.js';
import { fanOut, type Reporter } from '../report/reporters.js';
import type { RunSummary } from '../report/summary-schema.js';
import { probeHost } from '../sandbox/index.js';
import type { Case } from '../types/case.js';
import { caseClass } from '../types/case.js';
import type { CaseProblem } from '../types/errors.js';
import type { AttemptScores } from '../types/scores.js';
import { loadCases } from './load-cases.js';
import { gitSha, hangbenchVersion, type RunMeta } from './meta.js';
import { resolveOptions, variantsOf, type EvalOptions, type EvalOptionsInput } from './options.js';
import { finishedScores, resumeRun, type ResumedRun } from './resume.js';
import { attemptDir, runAttempt, type Attempt } from './run-attempt.js';
import { loadDurationHistory } from './duration-history.js';
import { admissionLimits, runScheduled } from './scheduler.js';
import { planAttempts, seedOf } from './scheduler-order.js';

export interface RunResult {
  readonly runDir: string;
  readonly summary: RunSummary;
  readonly problems: readonly CaseProblem[];
  /** true when the harness was told to stop before every attempt ran; `resume` runs the rest. */
  readonly interrupted: boolean;
}

export interface RunHooks {
  readonly reporter?: Required<Reporter>;
  /** abort to shut the run down: every sandbox is killed, finished results are kept. */
  readonly shutdown?: AbortSignal;
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
  const agent = createAgentFactory(options.agent, options);
  const runDir = resumed?.runDir ?? path.resolve(options.cwd, options.out, options.runId);
  await mkdir(runDir, { recursive: true });
  const version = await hangbenchVersion();
  const meta = resumed ? resumedMeta(resumed) : await buildMeta(options, cases, startedAt, version, capabilities);
  await writeJson(path.join(runDir, 'meta.json'), meta);

  const attempts = expand(cases, options);
  const finished: AttemptScores[] = [];
  const pending: Attempt[] = [];
  for (const attempt of attempts) {
    const recorded = resumed ? await finishedScores(attemptDir(runDir, attempt)) : null;
    if (recorded) finished.push(recorded);
    else pending.push(attempt);
  }
  const shutdown = hooks.shutdown ?? new AbortController().signal;
  // A reporter that throws is recorded and the run goes on, whoever built it (the CLI passes a fan-out already).
  const reporter = hooks.reporter
    ? fanOut([hooks.reporter], (failure) => appendFileSync(path.join(runDir, 'errors.log'), `reporter ${failure.reporter} failed in ${failure.hook}: ${String(failure.error)}\n`))
    : undefined;
  await reporter?.onRunStart({ runId: options.runId, startedAt, attempts: pending.length });
  const plan = planAttempts(pending, seedOf(options.runId), options.timeScale, await loadDurationHistory(path.resolve(options.cwd, options.out), runDir));
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
      agent,
      shutdown,
      onTick: reporter ? (_, tick) => void reporter.onTick(info, tick) : undefined,
    }).catch((error: unknown) => harnessErrorScores(attempt, error, path.join(runDir, 'errors.log')));
    if (scores === null) return;
    finished.push(scores);
    await reporter?.onAttemptEnd(info, scores);
  });

  const interrupted = shutdown.aborted;
  const order = new Map(attempts.map((attempt, index) => [attemptInfo(attempt).attemptId, index]));
  finished.sort((a, b) => (order.get(keyOf(a)) ?? 0) - (order.get(keyOf(b)) ?? 0));
  const summary = summarize(finished, {
    runId: options.runId,
    startedAt,
    finishedAt: new Date().toISOString(),
    hangbenchVersion: version,
    interrupted,
    options: publicOptions(options),
  });
  await writeJson(path.join(runDir, 'summary.json'), summary);
  await writeJson(path.join(runDir, 'meta.json'), { ...meta, interrupted });
  await reporter?.onRunEnd(summary);
  return { runDir, summary, problems, interrupted };
}

function resumedMeta({ meta }: ResumedRun): RunMeta {
  return { ...meta, resumedAt: [...(meta.resumedAt ?? []), new Date().toISOString()] };
}

export function expand(cases: readonly Case[], options: EvalOptions): Attempt[] {
  return cases.flatMap((testCase) =>
    variantsOf(options).flatMap((variant) => Array.from({ length: options.repeat }, (_, index) => ({ testCase, variant, repeat: index + 1 }))),
  );
}

function attemptInfo(attempt: Attempt) {
  const { testCase, variant, repeat } = attempt;
  return {
    attemptId: `${testCase.id}/${variant.name}/${repeat}`,
    caseId: testCase.id,
    kind: testCase.kind,
    class: caseClass(testCase),
    variant: variant.name,
    agent: variant.agent,
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
    },
    ticks: 0,
    tokens: 0,
    wallMs: 0,
    classificationAtEnd: null,
  };
}

function keyOf(scores: AttemptScores): string {
  return `${scores.caseId}/${scores.variant}/${scores.repeat}`;
}

function publicOptions(options: EvalOptions): Record<string, unknown> {
  const { cwd: _cwd, ...rest } = options;
  return rest;
}

async function buildMeta(options: EvalOptions, cases: readonly Case[], startedAt: string, version: string, host: RunMeta['host']): Promise<RunMeta> {
  return {
    metaVersion: 1,
    runId: options.runId,
    startedAt,
    options,
    cases: cases.map((testCase) => ({ id: testCase.id, file: path.relative(options.cwd, testCase.file), kind: testCase.kind })),
    versions: { hangbench: version, node: process.version, platform: `${process.platform}-${process.arch}`, gitSha: await gitSha(options.cwd) },
    host,
  };
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}
