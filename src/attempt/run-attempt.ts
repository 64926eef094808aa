import { DEFAULTS } from '../defaults.js';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { AgentFactory, AgentSession, Observation, OracleView } from '../agents/protocol.js';
import { createSandbox } from '../sandbox/index.js';
import type { HostCapabilities, Sandbox } from '../sandbox/types.js';
import { scoreAttempt } from '../scorers/index.js';
import type { Case, Onset } from '../types/case.js';
import { caseClass } from '../types/case.js';
import { TRACE_SCHEMA_VERSION, type EventOf } from '../types/events.js';
import { HangbenchError, LimitExceeded } from '../types/errors.js';
import type { AttemptScores } from '../types/scores.js';
import { writeJsonAtomic } from '../trace/atomic-write.js';
import { makeDirs } from '../trace/make-dirs.js';
import { resultsFaultOf } from '../trace/results-fault.js';
import { applySolutionPatch } from './patch.js';
import { AttemptSession } from './session.js';
import { TraceWriter } from '../trace/writer.js';
import { renderTick } from '../monitor/render.js';
import { scaleMode } from '../monitor/modes/index.js';
import type { VariantSpec } from '../types/variant.js';
import { hiddenLayers, runVerify } from './verify.js';
import { listWorkspace } from './workspace-files.js';
import { LoopFeatures } from './loop-features.js';
import { stopOutcome, type StopReason } from './stop-outcome.js';
import { attemptKey, sandboxAttemptId, type AttemptCoordinates } from '../types/attempt-key.js';
import { planInstalledAgent, runInstalledAgent, type InstalledRunResult } from './installed-agent.js';

export interface Attempt {
  readonly testCase: Case;
  readonly variant: VariantSpec;
  readonly repeat: number;
}

/** What an attempt needs of the run's options (an EvalOptions fits). */
export interface AttemptOptions {
  readonly runId: string;
  readonly timeScale: number;
  readonly maxTurns: number;
  readonly verifyFloorMs: number;
}

export interface AttemptContext {
  readonly options: AttemptOptions;
  readonly runDir: string;
  readonly capabilities: HostCapabilities;
  /** the factory of this attempt's variant (one per variant per run). */
  readonly agent: AgentFactory;
  /** aborted when the harness shuts down (Ctrl-C): kill everything, skip verify. */
  readonly shutdown: AbortSignal;
  readonly onTick?: (attempt: Attempt, tick: EventOf<'tick'>) => void;
}

/** After the wall budget, this long for the graceful kill (TERM, grace, KILL) to end the attempt before every process is SIGKILLed at once. */
const HARD_STOP_GRACE_MS = 5_000;

export function attemptDir(runDir: string, attempt: Attempt): string {
  return path.join(runDir, ...attemptKey(coordinatesOf(attempt)).split('/'));
}

export function coordinatesOf(attempt: Attempt): AttemptCoordinates {
  return { caseId: attempt.testCase.id, variant: attempt.variant.name, repeat: attempt.repeat };
}

/**
 * The event an attempt's trace begins with: who it is, its budgets and monitor mode after --time-scale, its case's
 * gates, hints and culprit, and how it is isolated. It is all a score needs of an attempt that never got further.
 */
export function attemptStartEvent(attempt: Attempt, scale: number, capabilities: HostCapabilities): Omit<EventOf<'attempt.start'>, 'seq' | 't'> {
  const { testCase, variant } = attempt;
  const override = variant.budgets ?? {};
  return {
    type: 'attempt.start',
    schemaVersion: TRACE_SCHEMA_VERSION,
    attemptId: attemptKey(coordinatesOf(attempt)),
    caseId: testCase.id,
    kind: testCase.kind,
    class: caseClass(testCase),
    variant: variant.name,
    repeat: attempt.repeat,
    agent: variant.agent.agent,
    timeScale: scale,
    variantSpec: variant,
    monitor: scaleMode(variant.monitor, scale),
    budgets: {
      tokens: override.tokens ?? testCase.budgets.tokens,
      wallMs: (override.wallMs ?? testCase.budgets.wall) * scale,
      interruptMs: (override.interruptMs ?? testCase.budgets.interrupt) * scale,
    },
    gates: testCase.gates.length,
    hints: testCase.hints.length,
    ...(testCase.kind === 'hang' && testCase.hang.culprit ? { culprit: testCase.hang.culprit } : {}),
    mechanism: capabilities.mechanism,
    isolation: capabilities.isolation,
    startedAt: new Date().toISOString(),
  };
}

/**
 * One attempt: fresh sandbox, agent loop under budgets, verify, leak scan, scores. Never throws for agent or case faults.
 * Resolves to null when the harness shut down first: the trace is kept, but no score.json, so `eval --resume` re-runs it.
 * When the results folder refuses a write (full, read-only, removed) the attempt stops at once and its scores carry the
 * `fault` (written to score.json if the disk still takes it): the run cannot go on, and a resume runs it again.
 */
export async function runAttempt(attempt: Attempt, context: AttemptContext): Promise<AttemptScores | null> {
  const { testCase, variant } = attempt;
  const { options } = context;
  const dir = attemptDir(context.runDir, attempt);
  await makeDirs(dir, context.runDir);
  const trace = new TraceWriter(path.join(dir, 'trace.jsonl'));
  const scale = options.timeScale;
  const start = attemptStartEvent(attempt, scale, context.capabilities);
  const { budgets, monitor: mode } = start;
  const stop = new AbortController();
  trace.onFault((error) => stop.abort({ kind: 'fault', ...(resultsFaultOf(error) ?? { code: error.code ?? 'EIO', message: error.message }) } satisfies StopReason));
  const installed = context.agent.installed;
  const attemptId = sandboxAttemptId(options.runId, coordinatesOf(attempt));
  let plan: Awaited<ReturnType<typeof planInstalledAgent>> | null = null;
  let sandbox: Sandbox;
  try {
    plan = installed ? await planInstalledAgent(installed, testCase) : null;
    sandbox = await createSandbox({
      attemptId,
      workspaceSource: path.join(testCase.fixtureDir, 'workspace'),
      timeScale: scale,
      capabilities: context.capabilities,
      ...(plan ? { binds: plan.binds } : {}),
    });
  } catch (error) {
    trace.close();
    throw error;
  }
  trace.write(start);
  if (context.onTick) {
    const onTick = context.onTick;
    trace.onEvent((event) => {
      if (event.type === 'tick') onTick(attempt, event);
    });
  }

  const wallTimer = setTimeout(() => stop.abort({ kind: 'wall', value: budgets.wallMs, limit: budgets.wallMs } satisfies StopReason), budgets.wallMs);
  // The budget holds whatever else broke: should the graceful kill not end every command, SIGKILL them all at once.
  const hardStop = setTimeout(() => sandbox.killNow(), budgets.wallMs + HARD_STOP_GRACE_MS);
  const onShutdown = () => stop.abort({ kind: 'harness' } satisfies StopReason);
  context.shutdown.addEventListener('abort', onShutdown, { once: true });
  if (context.shutdown.aborted) onShutdown();

  const tickTemplate = context.agent.tickTemplate;
  const session = new AttemptSession({
    sandbox,
    trace,
    testCase,
    mode,
    renderTick: (tick) => renderTick(tick, tickTemplate),
    onset: scaleOnset(testCase, scale),
    logDir: dir,
    signal: stop.signal,
  });
  const loop = new LoopFeatures({ testCase, sandbox, trace, timeScale: scale, floorMs: options.verifyFloorMs, logDir: dir, hints: variant.hints ?? DEFAULTS.hints });
  let tokens = 0;
  const agentStart = performance.now();
  let stopReason: StopReason | null = null;
  let agent: AgentSession | undefined;
  let installedRun: InstalledRunResult | null = null;
  try {
    if (installed && plan) {
      installedRun = await runInstalledAgent({
        agent: installed,
        plan,
        sandbox,
        session,
        trace,
        tokenBudget: budgets.tokens,
        logDir: dir,
        signal: stop.signal,
        onOverBudget: (value, limit) => stop.abort({ kind: 'tokens', value, limit } satisfies StopReason),
      });
      tokens = installedRun.tokens;
      if (stop.signal.aborted) throw stop.signal.reason;
    } else {
      agent = context.agent.create({
        testCase,
        signal: stop.signal,
        repeat: attempt.repeat,
        budgets,
        monitor: mode,
        timeScale: scale,
        reporter: {
          request: (turn, messages) => trace.write({ type: 'agent.request', turn, messages }),
          response: (turn, usage, latencyMs) => {
            trace.write({ type: 'agent.response', turn, usage, latencyMs });
            tokens += usage.promptTokens + usage.completionTokens;
            if (tokens > budgets.tokens) stop.abort({ kind: 'tokens', value: tokens, limit: budgets.tokens } satisfies StopReason);
          },
          note: (kind, message) => trace.write({ type: 'agent.note', kind, message }),
          egress: (record) => trace.write({ type: 'egress', ...record }),
        },
        ...(context.agent.privileged ? { oracle: oracleView(testCase, session) } : {}),
      });
      stopReason = await agentLoop(agent, session, loop, trace, stop.signal, options.maxTurns, await listWorkspace(sandbox.workspace), () => sandbox.lost());
    }
  } catch (error) {
    stopReason = stop.signal.aborted ? (stop.signal.reason as StopReason) : stopReasonOf(error);
  } finally {
    clearTimeout(wallTimer);
    context.shutdown.removeEventListener('abort', onShutdown);
    await agent?.close?.().catch(() => undefined);
  }
  const agentWallMs = performance.now() - agentStart;
  // A fault of the results folder met after the loop (a kill's event) stops the attempt all the same.
  if (stopReason === null && stop.signal.aborted && (stop.signal.reason as StopReason).kind === 'fault') stopReason = stop.signal.reason as StopReason;
  // A sandbox killed from outside ends every command in it: whatever the agent then did is no measure of it.
  const lost = sandbox.lost();
  if (lost !== null && stopReason?.kind !== 'harness' && stopReason?.kind !== 'fault') stopReason = { kind: 'lost', message: lost };

  try {
    if (stopReason && (stopReason.kind === 'wall' || stopReason.kind === 'tokens' || stopReason.kind === 'turns')) trace.write({ type: 'limit', ...stopReason });
    if (stopReason?.kind === 'lost') trace.write({ type: 'error', where: 'sandbox', message: stopReason.message });
    if (stopReason?.kind === 'error') trace.write({ type: 'error', where: 'agent', message: stopReason.message });
    if (stopReason?.kind === 'fault') trace.write({ type: 'error', where: 'results', message: `${stopReason.code}: ${stopReason.message}` });
    const { outcome, killer } = stopOutcome(stopReason);
    const why = stopReason ? `attempt stopped: ${stopReason.kind}` : 'agent finished with the command still running';
    if (installedRun) await installedRun.shutdown(killer, why);
    else if (plan) await rm(plan.hostDir, { recursive: true, force: true });
    // A harness that is stopping (a signal, a broken results folder) kills at once: the run has 2 s to end, and nothing
    // of a sandbox is kept for a program's TERM handler to save.
    const stopping = stopReason?.kind === 'harness' || stopReason?.kind === 'fault';
    await session.shutdown(killer, why, stopping ? 'SIGKILL' : 'SIGTERM');
    clearTimeout(hardStop);

    // Verify is skipped when the harness stops, or when the results folder cannot take its events.
    if (stopReason?.kind !== 'harness' && trace.fault === null) {
      await sandbox.settle();
      await verifyAttempt(sandbox, testCase, trace, options);
    }
    const leaks = await sandbox.leakScan();
    if (!leaks.clean) trace.write({ type: 'leak', processes: leaks.leaked });
    for (const hit of sandbox.limitHits()) trace.write({ type: 'sandbox.limit', ...hit });
    trace.write({
      type: 'attempt.end',
      // a results folder that refused a write is the harness's fault, whatever the agent did
      outcome: trace.fault === null ? outcome : 'error',
      clean: leaks.clean,
      wallMs: trace.now(),
      agentWallMs: Math.round(agentWallMs),
      tokens,
    });
  } finally {
    clearTimeout(hardStop);
    trace.close();
    await sandbox.dispose();
  }
  if (stopReason?.kind === 'harness' && trace.fault === null) return null;
  const fault = trace.fault ? (resultsFaultOf(trace.fault) ?? { code: trace.fault.code ?? 'EIO', message: trace.fault.message }) : null;
  const scores = scoreAttempt(trace.events);
  if (fault) return writeFaulted({ ...scores, outcome: 'error', fault: { where: 'results', ...fault } }, dir);
  if (stopReason?.kind === 'lost') return writeFaulted({ ...scores, outcome: 'error', fault: { where: 'sandbox', code: 'SANDBOX_LOST', message: stopReason.message } }, dir);
  try {
    await writeJsonAtomic(path.join(dir, 'score.json'), scores);
  } catch (error) {
    const refused = resultsFaultOf(error);
    if (refused === null) throw error;
    return { ...scores, outcome: 'error', fault: { where: 'results', ...refused } };
  }
  return scores;
}

/** The cause in score.json where the disk still takes it; resume runs a faulted attempt again either way. */
async function writeFaulted(scores: AttemptScores, dir: string): Promise<AttemptScores> {
  await writeJsonAtomic(path.join(dir, 'score.json'), scores).catch(() => undefined);
  return scores;
}

async function agentLoop(
  agent: AgentSession,
  session: AttemptSession,
  loop: LoopFeatures,
  trace: TraceWriter,
  signal: AbortSignal,
  maxTurns: number,
  files: readonly string[],
  lost: () => string | null,
): Promise<StopReason | null> {
  let observation: Observation = { type: 'task', issue: session.testCase.issue, repro: session.testCase.repro, files };
  for (let turn = 1; turn <= maxTurns; turn += 1) {
    const gone = lost();
    if (gone !== null) return { kind: 'lost', message: gone };
    for (const text of loop.hintsWith(observation)) agent.hint?.(text);
    const action = await abortable(agent.next(observation), signal);
    if (observation.type === 'tick') {
      trace.write({ type: 'decision', commandId: observation.tick.commandId, tickSeq: observation.tick.seq, action: action.type });
    }
    trace.write({ type: 'action', turn, action });
    if (action.type === 'finish') {
      // A failed gate answers the finish and the attempt goes on; passed, none, or retries spent: the finish stands.
      const failure = await loop.finish(signal);
      if (failure === null) return null;
      observation = { type: 'gate', ...failure };
      continue;
    }
    observation = await session.perform(action);
    if (observation.type === 'result') trace.write({ type: 'action.result', turn, ok: observation.ok, message: observation.message });
  }
  return { kind: 'turns', value: maxTurns, limit: maxTurns };
}

async function verifyAttempt(sandbox: Sandbox, testCase: Case, trace: TraceWriter, options: AttemptOptions): Promise<void> {
  try {
    const verifier = await sandbox.forVerify(...hiddenLayers(testCase.fixtureDir));
    await runVerify(verifier, testCase.verify, trace, { timeScale: options.timeScale, floorMs: options.verifyFloorMs, terminal: testCase.terminal });
  } catch (error) {
    trace.write({ type: 'error', where: 'verify', message: (error as Error).message });
  }
}

/** An agent that stops itself on a budget (LimitExceeded) is a limit, like the runner's own; anything else thrown is an ERROR. */
function stopReasonOf(error: unknown): StopReason {
  if (error instanceof LimitExceeded) return { kind: error.kind, value: error.value, limit: error.limit };
  // Typed errors (endpoint, external agent) carry a complete message; a stack would only bury it.
  if (error instanceof HangbenchError) return { kind: 'error', message: `${error.name} [${error.code}]: ${error.message}` };
  return { kind: 'error', message: (error as Error).stack ?? String(error) };
}

function oracleView(testCase: Case, session: AttemptSession): OracleView {
  return {
    testCase,
    onsetSeen: () => session.onsetHappened,
    patchedFiles: async () => {
      const outcome = await applySolutionPatch(testCase.fixtureDir);
      if (!outcome.ok) throw new Error(outcome.error);
      return outcome.files;
    },
  };
}

function scaleOnset(testCase: Case, scale: number): Onset | null {
  if (testCase.kind !== 'hang') return null;
  const onset = testCase.hang.onset;
  return 'after' in onset ? { after: onset.after * scale } : onset;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
