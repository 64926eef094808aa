import path from 'node:path';
import type { AgentFactory } from '../agents/protocol.js';
import { scaleMode } from '../modes/index.js';
import type { HostCapabilities } from '../sandbox/index.js';
import type { Case, Onset } from '../types/case.js';
import { caseClass } from '../types/case.js';
import { TRACE_SCHEMA_VERSION, type EventOf } from '../types/events.js';
import type { VariantSpec } from '../types/variant.js';
import { attemptKey, sandboxAttemptId, type AttemptCoordinates } from '../types/attempt-key.js';

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
  /** called once the agent is up: an installed CLI at its first model request (or exit), any other agent at the start. */
  readonly onAgentUp?: () => void;
}

export type AttemptStart = Omit<EventOf<'attempt.start'>, 'seq' | 't'>;

/** The plan phase: where the attempt is recorded, its sandbox's id, and its start event (budgets and mode scaled). */
export interface AttemptPlan {
  readonly attempt: Attempt;
  readonly dir: string;
  readonly sandboxId: string;
  readonly scale: number;
  readonly start: AttemptStart;
  /** the case onset with durations scaled; null for controls. */
  readonly onset: Onset | null;
}

export function planAttempt(attempt: Attempt, context: AttemptContext): AttemptPlan {
  const scale = context.options.timeScale;
  return {
    attempt,
    dir: attemptDir(context.runDir, attempt),
    sandboxId: sandboxAttemptId(context.options.runId, coordinatesOf(attempt)),
    scale,
    start: attemptStartEvent(attempt, scale, context.capabilities),
    onset: scaleOnset(attempt.testCase, scale),
  };
}

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
export function attemptStartEvent(attempt: Attempt, scale: number, capabilities: HostCapabilities): AttemptStart {
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

function scaleOnset(testCase: Case, scale: number): Onset | null {
  if (testCase.kind !== 'hang') return null;
  const onset = testCase.hang.onset;
  return 'after' in onset ? { after: onset.after * scale } : onset;
}
