import { z } from 'zod';

/**
 * How the monitor tells the agent about a running command (one schedule file each in src/monitor/modes/).
 * Durations are unscaled ms; the runner multiplies them by --time-scale.
 */
export const MonitorModeSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('interval'), everyMs: z.number().positive() }),
  z.strictObject({ mode: z.literal('no-output'), afterMs: z.number().positive(), everyMs: z.number().positive().optional() }),
  z.strictObject({ mode: z.literal('backoff'), firstMs: z.number().positive(), factor: z.number().min(1), maxMs: z.number().positive() }),
  z.strictObject({ mode: z.literal('timeout'), afterMs: z.number().positive() }),
  z.strictObject({ mode: z.literal('poll') }),
  z.strictObject({ mode: z.literal('wait-pid') }),
  /** installed agents: ticks computed on an interval, recorded as not delivered (observe only). */
  z.strictObject({ mode: z.literal('none'), everyMs: z.number().positive() }),
  /** installed agents: the shell shim writes each rendered tick into the running command's output stream. */
  z.strictObject({ mode: z.literal('inband'), everyMs: z.number().positive() }),
]);

/** Which agent, with the settings that agent takes (and only those). */
export const AgentSpecSchema = z.discriminatedUnion('agent', [
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
]);

/** Budget overrides of a variant, unscaled; absent fields keep the case's own budget. */
export const BudgetOverridesSchema = z.strictObject({
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
});

export type MonitorMode = z.infer<typeof MonitorModeSchema>;
export type ModeName = MonitorMode['mode'];
export type AgentSpec = z.infer<typeof AgentSpecSchema>;
export type AgentName = AgentSpec['agent'];
export type BudgetOverrides = z.infer<typeof BudgetOverridesSchema>;
export type VariantSpec = z.infer<typeof VariantSpecSchema>;

export const MODE_NAMES = MonitorModeSchema.options.map((option) => option.shape.mode.value) as readonly ModeName[];
export const AGENT_NAMES = AgentSpecSchema.options.map((option) => option.shape.agent.value) as readonly AgentName[];

/** Every duration of a mode multiplied by the time scale. */
export function scaleMode(mode: MonitorMode, scale: number): MonitorMode {
  switch (mode.mode) {
    case 'interval':
      return { mode: 'interval', everyMs: mode.everyMs * scale };
    case 'no-output':
      return { mode: 'no-output', afterMs: mode.afterMs * scale, ...(mode.everyMs === undefined ? {} : { everyMs: mode.everyMs * scale }) };
    case 'backoff':
      return { mode: 'backoff', firstMs: mode.firstMs * scale, factor: mode.factor, maxMs: mode.maxMs * scale };
    case 'timeout':
      return { mode: 'timeout', afterMs: mode.afterMs * scale };
    case 'none':
    case 'inband':
      return { mode: mode.mode, everyMs: mode.everyMs * scale };
    case 'poll':
    case 'wait-pid':
      return mode;
  }
}
