import { availableParallelism } from 'node:os';
import path from 'node:path';
import { formatDuration } from '../types/duration.js';
import type { Shard } from './shard.js';

/** Every default in one place; options are resolved once from all-optional to readonly. */
export const DEFAULTS = {
  agent: 'baseline',
  intervalMs: 10_000,
  timeScale: 1,
  concurrency: Math.max(1, Math.min(4, availableParallelism())),
  repeat: 1,
  out: 'results',
  /** baseline: consecutive "hung" ticks before it kills. */
  hungTicks: 2,
  maxTurns: 200,
  /** openai: the prompt folder under prompts/. */
  prompt: 'minimal',
  /** verify timeouts scale with --time-scale but never below this, so process start-up still fits. */
  verifyFloorMs: 3_000,
} as const;

export interface EvalOptions {
  readonly caseInputs: readonly string[];
  readonly agent: string;
  readonly intervalMs: number;
  readonly timeScale: number;
  readonly concurrency: number;
  readonly repeat: number;
  readonly out: string;
  readonly hungTicks: number;
  readonly maxTurns: number;
  readonly verifyFloorMs: number;
  readonly cwd: string;
  /** run id (folder name under out); generated from the clock when absent. */
  readonly runId: string;
  /** openai: model, endpoint (else OPENAI_BASE_URL), prompt folder, response cache folder (off when absent). The key is never an option. */
  readonly model?: string;
  readonly baseUrl?: string;
  readonly prompt: string;
  readonly cache?: string;
  /** replay: the run folder to replay. */
  readonly from?: string;
  /** exec: the command that starts an external agent. */
  readonly cmd?: string;
  /** run only this slice of the attempts (`--shard i/n`); `hangbench merge` joins the slices. */
  readonly shard?: Shard;
}

/** `resume`: a run folder whose unfinished attempts to run, with the options recorded in its meta.json. */
export type EvalOptionsInput = Partial<EvalOptions> & { readonly resume?: string };

export function resolveOptions(input: EvalOptionsInput): EvalOptions {
  return {
    caseInputs: input.caseInputs ?? [],
    agent: input.agent ?? DEFAULTS.agent,
    intervalMs: input.intervalMs ?? DEFAULTS.intervalMs,
    timeScale: input.timeScale ?? DEFAULTS.timeScale,
    concurrency: input.concurrency ?? DEFAULTS.concurrency,
    repeat: input.repeat ?? DEFAULTS.repeat,
    out: input.out ?? DEFAULTS.out,
    hungTicks: input.hungTicks ?? DEFAULTS.hungTicks,
    maxTurns: input.maxTurns ?? DEFAULTS.maxTurns,
    verifyFloorMs: input.verifyFloorMs ?? DEFAULTS.verifyFloorMs,
    cwd: input.cwd ?? process.cwd(),
    runId: input.runId ?? newRunId(),
    model: input.model,
    baseUrl: input.baseUrl,
    prompt: input.prompt ?? DEFAULTS.prompt,
    cache: input.cache,
    from: input.from,
    cmd: input.cmd,
    shard: input.shard,
  };
}

/** A variant is one monitor/agent configuration; attempts are case × variant × repeat. */
export interface Variant {
  readonly name: string;
  readonly agent: string;
  readonly intervalMs: number;
}

export function variantsOf(options: EvalOptions): Variant[] {
  // The prompt is part of an openai variant: comparing prompt styles is comparing variants.
  const prompt = options.agent === 'openai' ? `-${path.basename(options.prompt)}` : '';
  return [{ name: `${options.agent}${prompt}-${formatDuration(options.intervalMs)}`, agent: options.agent, intervalMs: options.intervalMs }];
}

function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}
