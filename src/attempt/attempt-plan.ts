import path from 'node:path';
import type { AgentFactory } from '../agents/protocol.js';
import { scaleMode } from '../modes/index.js';
import type { HostCapabilities } from '../sandbox/index.js';
import type { Case, Onset } from '../types/case.js';
import { caseClass } from '../types/case.js';
import { DEFAULTS } from '../defaults.js';
import { TRACE_SCHEMA_VERSION, type EventOf, type WallBudgetSource } from '../types/events.js';
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
    start: attemptStartEvent(attempt, scale, context.capabilities, installedTool(context.agent)),
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
export function attemptStartEvent(
  attempt: Attempt,
  scale: number,
  capabilities: HostCapabilities,
  tool: InstalledTool | null = null,
): AttemptStart {
  const { testCase, variant } = attempt;
  const override = variant.budgets ?? {};
  const wall = wallBudget(attempt, scale, tool);
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
      wallMs: wall.ms,
      interruptMs: (override.interruptMs ?? testCase.budgets.interrupt) * scale,
      wallFrom: wall.from,
    },
    ...(tool?.timeouts ? { toolTimeouts: tool.timeouts } : {}),
    gates: testCase.gates.length,
    hints: testCase.hints.length,
    ...(testCase.kind === 'hang' && testCase.hang.culprit ? { culprit: testCase.hang.culprit } : {}),
    mechanism: capabilities.mechanism,
    isolation: capabilities.isolation,
    startedAt: new Date().toISOString(),
  };
}

/** What the start event needs of an installed agent CLI: its tool's own deadlines, and whether the probe model drives it. */
export interface InstalledTool {
  readonly timeouts: Readonly<Record<string, number>> | null;
  readonly probe: boolean;
}

function installedTool(agent: AgentFactory): InstalledTool | null {
  if (agent.kind !== 'installed') return null;
  return { timeouts: agent.installed.toolTimeouts(), probe: agent.installed.upstream === null };
}

/**
 * The attempt's wall budget: the variant's override, else the case's, both scaled; with the probe model at least the
 * CLI tool's longest own deadline plus a margin (unscaled: the CLI's timers do not follow --time-scale), so that the
 * tool can speak before the budget ends the attempt and "never returned" means the tool never did.
 */
function wallBudget(
  { testCase, variant }: Attempt,
  scale: number,
  tool: InstalledTool | null,
): { readonly ms: number; readonly from: WallBudgetSource } {
  if (variant.budgets?.wallMs !== undefined) return { ms: variant.budgets.wallMs * scale, from: 'variant' };
  const caseMs = testCase.budgets.wall * scale;
  const longest = tool?.probe && tool.timeouts ? Math.max(0, ...Object.values(tool.timeouts)) : 0;
  const floor = longest > 0 ? longest + DEFAULTS.probeTimeoutMarginMs : 0;
  return floor > caseMs ? { ms: floor, from: 'tool-timeout' } : { ms: caseMs, from: 'case' };
}

function scaleOnset(testCase: Case, scale: number): Onset | null {
  if (testCase.kind !== 'hang') return null;
  const onset = testCase.hang.onset;
  return 'after' in onset ? { after: onset.after * scale } : onset;
}
