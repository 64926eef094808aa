import type { VariantSpec } from '../types/variant.js';
import { DEFAULTS } from '../defaults.js';
import { expandVariants, type VariantAxes } from './variants.js';
import type { Shard } from './shard.js';

export interface EvalOptions {
  readonly caseInputs: readonly string[];
  /** resolved once: names unique, every agent setting filled in. Attempts are case × variant × repeat. */
  readonly variants: readonly VariantSpec[];
  readonly timeScale: number;
  /** at most this many attempts at once; undefined: the scheduler's default (admissionLimits in scheduler.ts). */
  readonly concurrency?: number;
  readonly repeat: number;
  readonly seed: number;
  readonly out: string;
  readonly maxTurns: number;
  readonly verifyFloorMs: number;
  readonly cwd: string;
  /** --agent-env and --agent-allow-host: what an exec agent's own sandboxed process gets (see AgentEnvironment). */
  readonly agentEnv?: readonly string[];
  readonly agentAllowHosts?: readonly string[];
  /** run id (folder name under out); generated from the clock when absent. */
  readonly runId: string;
  /** the config file the variants came from, when they did (relative to cwd, for meta.json). */
  readonly config?: string;
  /** run only this slice of the attempts (`--shard i/n`); `hangbench merge` joins the slices. */
  readonly shard?: Shard;
}

export type { OneOrMany } from './variants.js';

/**
 * What a caller may give: any of the resolved options, every axis of the variant cross product (VariantAxes), or
 * ready variants (from a config file or a resumed run). `resume`: a run folder to finish with its recorded options.
 */
export interface EvalOptionsInput extends VariantAxes, Partial<EvalOptions> {
  readonly resume?: string;
}

export function resolveOptions(input: EvalOptionsInput): EvalOptions {
  return {
    caseInputs: input.caseInputs ?? [],
    variants: input.variants ?? expandVariants(input),
    timeScale: input.timeScale ?? DEFAULTS.timeScale,
    concurrency: input.concurrency,
    repeat: input.repeat ?? DEFAULTS.repeat,
    seed: input.seed ?? DEFAULTS.seed,
    out: input.out ?? DEFAULTS.out,
    maxTurns: input.maxTurns ?? DEFAULTS.maxTurns,
    verifyFloorMs: input.verifyFloorMs ?? DEFAULTS.verifyFloorMs,
    cwd: input.cwd ?? process.cwd(),
    ...(input.agentEnv === undefined ? {} : { agentEnv: input.agentEnv }),
    ...(input.agentAllowHosts === undefined ? {} : { agentAllowHosts: input.agentAllowHosts }),
    runId: input.runId ?? newRunId(),
    ...(input.config === undefined ? {} : { config: input.config }),
    ...(input.shard === undefined ? {} : { shard: input.shard }),
  };
}

function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}
