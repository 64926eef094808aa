import { z } from 'zod';
import { MonitorModeSchema } from '../modes/index.js';
import { StdinWiringSchema } from './terminal.js';

/** Which agent, with the settings that agent takes (and only those). */
const AgentSpecSchema = z.discriminatedUnion('agent', [
  z.strictObject({ agent: z.literal('baseline'), hungTicks: z.number().int().positive() }),
  z.strictObject({
    agent: z.literal('openai'),
    model: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    prompt: z.string().min(1),
    cache: z.string().min(1).optional(),
  }),
  z.strictObject({ agent: z.literal('exec'), cmd: z.string().min(1) }),
  z.strictObject({ agent: z.literal('replay'), from: z.string().min(1) }),
  z.strictObject({ agent: z.literal('oracle') }),
  z.strictObject({ agent: z.literal('nop') }),
  /** an installed agent CLI (`--agent cli:codex`): the adapter's name, its settings (`--set NAME=V`), the endpoint. */
  z.strictObject({
    agent: z.literal('cli'),
    adapter: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    settings: z.record(z.string(), z.string()),
    model: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    cmd: z.string().min(1).optional(),
  }),
  /** `--agent ./my-agent.mjs`: a module whose default export is an agent (defineAgent), relative to the working folder. */
  z.strictObject({ agent: z.literal('module'), path: z.string().min(1) }),
]);

/** Budget overrides of a variant, unscaled; absent fields keep the case's own budget. */
const BudgetOverridesSchema = z.strictObject({
  tokens: z.number().int().positive().optional(),
  wallMs: z.number().positive().optional(),
  interruptMs: z.number().positive().optional(),
});

export const VariantSpecSchema = z.strictObject({
  /** readable, stable, unique within a run and safe in paths: `baseline·no-output-5s`, or the config file's name. */
  name: z.string().regex(/^[\p{L}\p{N}·._+-]+$/u),
  agent: AgentSpecSchema,
  monitor: MonitorModeSchema,
  budgets: BudgetOverridesSchema.optional(),
  /** case hints delivered to the agent (the `--hints on|off` switch); absent means on. */
  hints: z.boolean().optional(),
  /** how the agent's commands get stdin (the `--stdin` axis); absent means as the case declares. */
  stdin: StdinWiringSchema.optional(),
});

export type AgentSpec = z.infer<typeof AgentSpecSchema>;
export type AgentName = AgentSpec['agent'];
export type BudgetOverrides = z.infer<typeof BudgetOverridesSchema>;
export type VariantSpec = z.infer<typeof VariantSpecSchema>;

export const AGENT_NAMES = AgentSpecSchema.options.map((option) => option.shape.agent.value) as readonly AgentName[];

/** An installed agent CLI is `cli` in its spec and a trace, `cli:<adapter>` on the command line. */
const INSTALLED_AGENT: AgentName = 'cli';
const INSTALLED_PREFIX = `${INSTALLED_AGENT}:`;

/** Whether an agent word (a spec's `agent`, a trace's, or `--agent cli:codex`) names an installed agent CLI. */
export function isInstalledAgent(word: string): boolean {
  return word === INSTALLED_AGENT || word.startsWith(INSTALLED_PREFIX);
}

/** The adapter `--agent cli:<adapter>` names; undefined for any other word. */
export function adapterOfWord(word: string): string | undefined {
  return word.startsWith(INSTALLED_PREFIX) ? word.slice(INSTALLED_PREFIX.length) : undefined;
}

export type OneOrMany<T> = T | readonly T[];

/**
 * The axes of the variant cross product, each one value or a list (the CLI's comma lists), and the agent settings
 * that are not axes. `EvalOptionsInput` extends it; expandVariants needs nothing else.
 */
export interface VariantAxes {
  readonly agent?: OneOrMany<string>;
  readonly mode?: OneOrMany<string>;
  readonly intervalMs?: OneOrMany<number>;
  readonly prompt?: OneOrMany<string>;
  readonly hungTicks?: OneOrMany<number>;
  readonly hints?: OneOrMany<boolean>;
  /** `--stdin pipe,null,tty`: the agent's commands' stdin; absent means as each case declares. */
  readonly stdin?: OneOrMany<string>;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly cache?: string;
  readonly from?: string;
  readonly cmd?: string;
  /** installed agents' settings as axes: `--set NAME=V1,V2` → { NAME: [V1, V2] }. */
  readonly settings?: Readonly<Record<string, readonly string[]>>;
  readonly budgets?: BudgetOverrides;
  /** where a module agent's relative path (`--agent ./my-agent.mjs`) is resolved from. */
  readonly cwd?: string;
}

export function listOf<T>(value: OneOrMany<T> | undefined): readonly T[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}
