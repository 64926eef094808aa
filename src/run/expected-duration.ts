import { agentTraits } from '../agents/registry.js';
import { DEFAULTS } from '../defaults.js';
import type { Case } from '../types/case.js';
import { caseClass } from '../types/case.js';

/**
 * What the scheduler needs of a variant; the old `{name, agent, intervalMs}` and a `VariantSpec` both fit.
 * Only the name, the agent kind, the baseline's hungTicks, the tick interval and a wall budget matter here.
 */
export interface DurationVariant {
  readonly name: string;
  readonly agent: string | { readonly agent: string; readonly hungTicks?: number };
  readonly intervalMs?: number;
  readonly monitor?: {
    readonly mode: string;
    readonly everyMs?: number;
    readonly afterMs?: number;
    readonly firstMs?: number;
  };
  readonly budgets?: { readonly wallMs?: number };
}

/** Earlier attempts' wall ms less FIXED_OVERHEAD_MS, at time scale 1, by `historyKey(caseId, variant name)` (duration-history.ts). */
export type DurationHistory = ReadonlyMap<string, readonly number[]>;

/**
 * Cores an attempt keeps busy, by class: a busy program one, a flood two (the program writing and the harness
 * reading at full speed). Every other class is idle beside a waiting program, apart from short bursts.
 */
const CPU_WEIGHTS: ReadonlyMap<string, number> = new Map([
  ['busy-loop', 1],
  ['livelock', 1],
  ['quiet-compute', 1],
  ['output-flood', 2],
]);

/** Sandbox set-up, process start-up, leak scan and disposal: not scaled by --time-scale. */
export const FIXED_OVERHEAD_MS = 1_500;

export function historyKey(caseId: string, variantName: string): string {
  return `${caseId}\u0000${variantName}`;
}

export function cpuWeight(testCase: Case): number {
  return CPU_WEIGHTS.get(caseClass(testCase)) ?? 0;
}

/**
 * CPU ms of an attempt's work that --time-scale does not shrink: its set-up and every command's start-up (the
 * agent's runs — none for nop, one for the baseline, two for any agent that also re-runs after a fix — and each
 * verify step and gate). At a small time scale this, not the program's scaled sleeps, is what the attempt needs of a core.
 */
export function startupCpuMs(testCase: Case, variant: DurationVariant): number {
  const commands = traitsOf(variant).commandRuns + testCase.verify.length + testCase.gates.length;
  return DEFAULTS.attemptCpuMs + DEFAULTS.commandCpuMs * commands;
}

/**
 * How long one attempt is expected to take, for ordering the longest first and balancing shards. Pure.
 * With history for the case and variant: the median of earlier attempts, rescaled. Without: a model of the
 * baseline agent — a hang is killed a few ticks after it starts and its verify steps then run until their
 * timeouts (the cause is unfixed); a control runs to its end twice (once for the agent, once for verify), which
 * the verify timeouts bound at about twice a healthy run. Every figure is capped by the budgets that stop it.
 */
export function expectedDurationMs(
  testCase: Case,
  variant: DurationVariant,
  timeScale: number,
  history?: DurationHistory,
): number {
  const learned = history?.get(historyKey(testCase.id, variant.name));
  if (learned && learned.length > 0) return median(learned) * timeScale + FIXED_OVERHEAD_MS;
  const { commandRuns, fixesCause } = traitsOf(variant);
  const wallMs = (variant.budgets?.wallMs ?? testCase.budgets.wall) * timeScale;
  const verifyMs = testCase.verify.map((step) => Math.max(DEFAULTS.verifyFloorMs, step.timeout * timeScale));
  const firstVerifyMs = verifyMs[0] ?? 0;
  const allVerifyMs = verifyMs.reduce((sum, ms) => sum + ms, 0);
  if (testCase.kind === 'control') {
    const run = Math.min(wallMs, firstVerifyMs / 2);
    return (commandRuns === 0 ? 0 : run) + run + (allVerifyMs - firstVerifyMs) / 4 + FIXED_OVERHEAD_MS;
  }
  const agentMs = commandRuns === 0 ? 0 : Math.min(wallMs, (hungTicksOf(variant) + 1) * tickMs(variant) * timeScale);
  // The oracle fixes the cause, so its verify passes quickly; any other agent is assumed not to.
  const verify = fixesCause ? allVerifyMs / 4 : allVerifyMs;
  return agentMs + verify + FIXED_OVERHEAD_MS;
}

function traitsOf(variant: DurationVariant): ReturnType<typeof agentTraits> {
  return agentTraits(typeof variant.agent === 'string' ? variant.agent : variant.agent.agent);
}

function hungTicksOf(variant: DurationVariant): number {
  return typeof variant.agent === 'string' ? DEFAULTS.hungTicks : (variant.agent.hungTicks ?? DEFAULTS.hungTicks);
}

/** The unscaled ms between ticks; modes without regular ticks count as one tick at their first deadline. */
function tickMs(variant: DurationVariant): number {
  const monitor = variant.monitor;
  return monitor?.everyMs ?? monitor?.afterMs ?? monitor?.firstMs ?? variant.intervalMs ?? DEFAULTS.intervalMs;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
