import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { DEFAULTS } from '../defaults.js';
import { DurationSchema } from '../types/duration.js';
import { StdinWiringSchema } from '../types/terminal.js';
import { formatCaseProblem, HangbenchError, type CaseProblem } from '../types/errors.js';
import { makeMode, MODE_FIELDS, MODE_NAMES, modeTakes, type MonitorMode } from '../modes/index.js';
import {
  AGENT_NAMES,
  type AgentName,
  type AgentSpec,
  type BudgetOverrides,
  type VariantSpec,
} from '../types/variant.js';
import { AGENT_CONFIG_KEYS, AGENTS, type AgentDefinition } from '../agents/registry.js';
import { problemsFromIssues } from '../cases/case-problems.js';
import { assertUniqueNames, variantName } from './variants.js';

/** The issue's message is whole: the error report adds no "found …". */
const COMPLETE = { complete: true };

const BudgetsSchema = z.strictObject({
  tokens: z.number().int().positive().optional(),
  wall: DurationSchema.optional(),
  interrupt: DurationSchema.optional(),
});

/** One variant as a person writes it: the agent and its settings, the mode and its durations, side by side. */
const ConfigVariantSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[\p{L}\p{N}·._+-]+$/u, 'letters, digits and · . _ + - only (it names a folder)')
      .optional(),
    agent: z.enum(AGENT_NAMES),
    hungTicks: z.number().int().positive().optional(),
    prompt: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    cache: z.string().min(1).optional(),
    cmd: z.string().min(1).optional(),
    from: z.string().min(1).optional(),
    /** agent module: the module's path, relative to the config file. */
    path: z.string().min(1).optional(),
    /** agent cli: the adapter under agents/ and its settings. */
    adapter: z.string().min(1).optional(),
    settings: z.record(z.string(), z.string()).optional(),
    mode: z.enum(MODE_NAMES).default(DEFAULTS.mode),
    /** the mode's period, as --interval: interval's every, no-output's after, backoff's first, timeout's after. */
    interval: DurationSchema.optional(),
    /** no-output: the gap between ticks while it stays silent (default: interval). */
    every: DurationSchema.optional(),
    factor: z.number().min(1).optional(),
    max: DurationSchema.optional(),
    budgets: BudgetsSchema.optional(),
    hints: z.boolean().optional(),
    /** the agent's commands' stdin: pipe, null (/dev/null) or tty; default as each case declares. */
    stdin: StdinWiringSchema.optional(),
  })
  .superRefine((variant, ctx) => {
    for (const field of AGENT_CONFIG_KEYS) {
      const agents = AGENT_NAMES.filter((agent) => AGENTS[agent].configKeys.includes(field));
      if (variant[field] !== undefined && !agents.includes(variant.agent)) {
        ctx.addIssue({
          code: 'custom',
          params: COMPLETE,
          path: [field],
          message: `${field} applies to agent ${agents.join(' or ')}, not ${variant.agent}; remove it`,
        });
      }
    }
    const required = AGENTS[variant.agent].requires;
    if (required && variant[required.key] === undefined)
      ctx.addIssue({ code: 'custom', params: COMPLETE, path: [required.key], message: required.message });
    for (const field of MODE_FIELDS) {
      const modes = MODE_NAMES.filter((mode) => modeTakes(mode).includes(field));
      if (variant[field] !== undefined && !modes.includes(variant.mode)) {
        ctx.addIssue({
          code: 'custom',
          params: COMPLETE,
          path: [field],
          message: `${field} applies to mode ${modes.join(', ')}, not ${variant.mode}; remove it`,
        });
      }
    }
  });

export const ConfigFileSchema = z.strictObject({
  /** case files, folders or globs, relative to the config file (default: cases/ of the working folder). */
  cases: z.array(z.string().min(1)).min(1).optional(),
  repeat: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
  timeScale: z.number().positive().optional(),
  concurrency: z.number().int().positive().optional(),
  /** budgets for every variant that does not set its own. */
  budgets: BudgetsSchema.optional(),
  variants: z.array(ConfigVariantSchema).min(1),
});

type ConfigVariant = z.infer<typeof ConfigVariantSchema>;
type Budgets = z.infer<typeof BudgetsSchema>;

/** The keys of a `budgets:` block (and of `eval --budget`): tokens, wall, interrupt. */
export type BudgetKey = keyof Budgets;
export const BUDGET_KEYS = Object.keys(BudgetsSchema.shape) as readonly BudgetKey[];

/** A `budgets:` block (durations already in ms) as a variant's overrides; an empty block overrides nothing. */
export function budgetOverrides(budgets: Budgets): BudgetOverrides | undefined {
  const overrides = {
    ...(budgets.tokens === undefined ? {} : { tokens: budgets.tokens }),
    ...(budgets.wall === undefined ? {} : { wallMs: budgets.wall }),
    ...(budgets.interrupt === undefined ? {} : { interruptMs: budgets.interrupt }),
  };
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}

export interface LoadedConfig {
  readonly file: string;
  readonly caseInputs?: readonly string[];
  readonly repeat?: number;
  readonly seed?: number;
  readonly timeScale?: number;
  readonly concurrency?: number;
  readonly variants: readonly VariantSpec[];
}

const CONFIG_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(ConfigFileSchema.shape),
  variants: Object.keys(ConfigVariantSchema.shape),
  budgets: Object.keys(BudgetsSchema.shape),
};

/** Reads `hangbench.config.yaml`; every problem is a CONFIG error naming file:line:column and the field. */
export async function loadConfigFile(file: string, cwd: string): Promise<LoadedConfig> {
  const full = path.resolve(cwd, file);
  const text = await readFile(full, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new HangbenchError('CONFIG', `--config ${file}: cannot read it (${error.code ?? error.message})`);
  });
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const problems: CaseProblem[] = doc.errors.map((error) => {
    const position = lines.linePos(error.pos[0]);
    return {
      file: full,
      line: position.line,
      column: position.col,
      field: '',
      message: `not valid YAML: ${error.message.split('\n')[0]}`,
    };
  });
  const parsed = problems.length === 0 ? ConfigFileSchema.safeParse(doc.toJS()) : null;
  if (parsed && !parsed.success)
    problems.push(...problemsFromIssues(full, doc, lines, parsed.error.issues, CONFIG_KEYS));
  if (problems.length > 0 || !parsed?.success) {
    throw new HangbenchError(
      'CONFIG',
      `invalid config file:\n${problems.map((problem) => `  ${formatCaseProblem(problem)}`).join('\n')}`,
    );
  }
  const config = parsed.data;
  const base = path.dirname(full);
  return {
    file: full,
    ...(config.cases ? { caseInputs: config.cases.map((input) => path.resolve(base, input)) } : {}),
    ...(config.repeat === undefined ? {} : { repeat: config.repeat }),
    ...(config.seed === undefined ? {} : { seed: config.seed }),
    ...(config.timeScale === undefined ? {} : { timeScale: config.timeScale }),
    ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
    variants: assertUniqueNames(config.variants.map((variant) => toVariantSpec(variant, config.budgets, base))),
  };
}

function toVariantSpec(variant: ConfigVariant, shared: Budgets | undefined, base: string): VariantSpec {
  const agent = agentSpecOf(variant, base);
  const monitor = monitorOf(variant);
  const hints = variant.hints ?? DEFAULTS.hints;
  const overrides = budgetOverrides({ ...shared, ...variant.budgets });
  return {
    name: variant.name ?? variantName(agent, monitor, hints, variant.stdin),
    agent,
    monitor,
    ...(overrides === undefined ? {} : { budgets: overrides }),
    ...(hints ? {} : { hints: false }),
    ...(variant.stdin === undefined ? {} : { stdin: variant.stdin }),
  };
}

function agentSpecOf(variant: ConfigVariant, base: string): AgentSpec {
  return (AGENTS[variant.agent] as AgentDefinition<AgentName>).fromConfig(variant, base);
}

function monitorOf(variant: ConfigVariant): MonitorMode {
  return makeMode(variant.mode, {
    periodMs: variant.interval ?? DEFAULTS.intervalMs,
    ...(variant.every === undefined ? {} : { everyMs: variant.every }),
    ...(variant.factor === undefined ? {} : { factor: variant.factor }),
    ...(variant.max === undefined ? {} : { maxMs: variant.max }),
  });
}
