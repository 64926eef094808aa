import { appendFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { loadTokenizer } from '../agents/tokens.js';
import { summarize } from '../summary/index.js';
import type { RunSummary } from '../summary/index.js';
import { writeJsonAtomic } from '../trace/atomic-write.js';
import type { Case } from '../types/case.js';
import { attemptKey } from '../types/attempt-key.js';
import { HangbenchError } from '../types/errors.js';
import { RUN_FILES } from '../types/run-files.js';
import { harnessNice, type HostCapabilities } from '../sandbox/index.js';
import { attemptInfo } from './attempt-info.js';
import { gitSha, META_VERSION, RunMetaSchema, type RunMeta } from './meta.js';
import type { EvalOptions } from './options.js';
import { fanOut, type Reporter, type ReporterFailure } from './reporter-hooks.js';
import type { ResumedRun } from './resume.js';
import { resultsFaultLine, writeRunFile } from './results-folder.js';
import type { AttemptsRun } from './run-attempts.js';
import type { LoadedRun, RunPlan } from './run-plan.js';

/** What the record phase needs of the run's caller. */
export interface RecordHooks {
  readonly reporters?: readonly Reporter[];
  readonly onReporterError?: (failure: ReporterFailure) => void;
  readonly afterRun?: (runDir: string) => Promise<unknown>;
}

/** meta.json before the first attempt: the options, the host, the versions and the start order (a resumed run's own, with this resume's time). */
export async function writeStartMeta(loaded: LoadedRun, plan: RunPlan): Promise<RunMeta> {
  const { options, resumed, runDir } = loaded;
  const order = plan.order.map((planned) => attemptInfo(planned.attempt).attemptId);
  const meta = resumed
    ? resumedMeta(resumed, options.repeat)
    : await buildMeta(options, loaded.cases, loaded.startedAt, loaded.version, loaded.capabilities, order);
  await writeRunFile(writeJsonAtomic(path.join(runDir, RUN_FILES.meta), meta), runDir, plan.finished.length);
  return meta;
}

/** The tokenizer loaded and the reporters told the run starts; a reporter that throws is recorded and the run goes on. */
export async function startReporting(
  loaded: LoadedRun,
  plan: RunPlan,
  hooks: RecordHooks,
): Promise<Required<Reporter> | undefined> {
  const { options, runDir } = loaded;
  // Every delivered tick's token count is recorded: load the tokenizer (≈ 70 MB) now, not inside the first attempt's
  // first tick — unless no variant can receive a tick (nop finishes at once).
  if (plan.pending.length > 0 && options.variants.some((variant) => variant.agent.agent !== 'nop')) loadTokenizer();
  const reporter =
    hooks.reporters && hooks.reporters.length > 0
      ? fanOut(hooks.reporters, (failure) => {
          appendFileSync(
            path.join(runDir, RUN_FILES.errors),
            `reporter ${failure.reporter} failed in ${failure.hook}: ${String(failure.error)}\n`,
          );
          hooks.onReporterError?.(failure);
        })
      : undefined;
  await reporter?.onRunStart({ runId: options.runId, startedAt: loaded.startedAt, attempts: plan.pending.length });
  return reporter;
}

/**
 * The record phase: summary.json and meta.json (each by rename), then the reports. A results folder that refused a
 * write throws one line (HangbenchError RESULTS) saying what was kept and how to resume.
 */
export async function recordRun(
  loaded: LoadedRun,
  plan: RunPlan,
  meta: RunMeta,
  ran: AttemptsRun,
  hooks: RecordHooks,
  shutdown: AbortSignal,
): Promise<RunSummary> {
  const { options, runDir } = loaded;
  const { interrupted, fault } = ran;
  const caseOrder = new Map(plan.attempts.map((attempt, index) => [attemptInfo(attempt).attemptId, index]));
  const finished = [...ran.finished].sort(
    (a, b) => (caseOrder.get(attemptKey(a)) ?? 0) - (caseOrder.get(attemptKey(b)) ?? 0),
  );
  const summary = summarize(finished, {
    runId: options.runId,
    startedAt: loaded.startedAt,
    finishedAt: new Date().toISOString(),
    hangbenchVersion: loaded.version,
    interrupted,
    options: publicOptions(options),
    seed: options.seed,
    cores: availableParallelism(),
  });
  if (fault !== null) {
    // Each file by rename: what the disk still takes is whole, what it refuses is absent; resume needs neither.
    // the fault is thrown below; these write what the disk still takes
    await writeJsonAtomic(path.join(runDir, RUN_FILES.summary), summary).catch(() => undefined);
    await writeJsonAtomic(path.join(runDir, RUN_FILES.meta), { ...meta, interrupted }).catch(() => undefined);
    throw new HangbenchError('RESULTS', resultsFaultLine(fault, runDir, finished.length));
  }
  await writeRunFile(writeJsonAtomic(path.join(runDir, RUN_FILES.summary), summary), runDir, finished.length);
  await writeRunFile(
    writeJsonAtomic(path.join(runDir, RUN_FILES.meta), { ...meta, interrupted }),
    runDir,
    finished.length,
  );
  // The reports are a view of the results: one that fails to render is recorded, the results stand. A run told to
  // stop skips them (they take seconds on a big run; `hangbench report DIR` renders them later).
  if (hooks.afterRun && !shutdown.aborted) await renderReports(hooks.afterRun, runDir);
  return summary;
}

/** Renders the reports of a run folder; a failure goes to its errors.log, and the run's results stand. */
export async function renderReports(afterRun: (runDir: string) => Promise<unknown>, runDir: string): Promise<void> {
  await afterRun(runDir)
    .catch((error: unknown) =>
      appendFile(path.join(runDir, RUN_FILES.errors), `reports: ${(error as Error).stack ?? String(error)}\n`),
    )
    // an errors.log the disk refuses too: the reports are a view, and nowhere else is left to say it
    .catch(() => undefined);
}

function resumedMeta({ meta }: ResumedRun, repeat: number): RunMeta {
  return {
    ...meta,
    options: { ...meta.options, repeat },
    resumedAt: [...(meta.resumedAt ?? []), new Date().toISOString()],
  };
}

function publicOptions(options: EvalOptions): Record<string, unknown> {
  const { cwd: _cwd, ...rest } = options;
  return rest;
}

/** Validated on the way out as on the way in, so a run never records a meta.json its own readers would refuse. */
async function buildMeta(
  options: EvalOptions,
  cases: readonly Case[],
  startedAt: string,
  version: string,
  host: HostCapabilities,
  order: readonly string[],
): Promise<RunMeta> {
  return RunMetaSchema.parse({
    metaVersion: META_VERSION,
    runId: options.runId,
    startedAt,
    options,
    cases: cases.map((testCase) => ({
      id: testCase.id,
      file: path.relative(options.cwd, testCase.file),
      kind: testCase.kind,
    })),
    versions: {
      hangbench: version,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      gitSha: await gitSha(options.cwd),
    },
    // the harness's nice value as the run started (HANGBENCH_HARNESS_NICE moves it): ticks on time depend on it.
    host: { ...host, harnessNice: harnessNice() },
    order,
  });
}
