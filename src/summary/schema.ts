import { StdinWiringRowSchema } from './stdin-wiring.js';
import { z } from 'zod';
import { CaseKindSchema } from '../types/case.js';
import { AGENT_EXITS, OUTCOMES, TOOL_ENDS, type AttemptScores } from '../types/scores.js';
import { RateSchema } from './schema-rate.js';
import { MetricComparisonSchema, OverSchema, SweepSchema } from './schema-comparisons.js';
import { SequentialSchema } from './schema-sequential.js';

export { RateSchema };

/**
 * summary.json is a saved result read back by `compare`, so it has a schema and a version.
 * 2: one group per variant name, pass@k, bootstrap latency intervals, tokens per tick, `statistics`, `comparisons`,
 * `caseMatrix`. 3: `fixed` over hangs only and `intact` over controls, each group rate says what it is `over`,
 * `comparisons` one family per metric with effects and intervals, `sweep`. 4: each comparison row's minimum detectable
 * effect (`mde`), and `sequential` for `eval --repeat-until decided`. Versions 1 to 3 are still read (read.ts
 * re-summarizes their attempts).
 */
export const SUMMARY_VERSION = 4;

/** A variant's rate, and which attempts it counts over. */
export const GroupRateSchema = RateSchema.extend({ over: OverSchema });

export const AttemptScoresSchema = z.strictObject({
  caseId: z.string(),
  kind: CaseKindSchema,
  class: z.string(),
  variant: z.string(),
  agent: z.string(),
  repeat: z.number().int(),
  outcome: z.enum(OUTCOMES),
  scores: z.strictObject({
    reproduced: z.boolean().nullable(),
    interrupted: z.boolean().nullable(),
    interrupt_latency: z.number().nullable(),
    /** hangs only since summary version 3 (before, every verify passing, for controls too) */
    fixed: z.boolean().nullable(),
    /** controls: verify still passes after the agent; added in summary version 3 */
    intact: z.boolean().nullable(),
    false_kill: z.boolean().nullable(),
    completed: z.boolean().nullable(),
    within_budget: z.boolean(),
    clean: z.boolean(),
    solved: z.boolean(),
    /** issue 12; absent from score.json written before gates and hints existed. */
    gates_passed: z.boolean().nullable().default(null),
    gate_rounds: z.number().int().nonnegative().nullable().default(null),
    hint_given: z.boolean().nullable().default(null),
    hint_to_action: z.number().nullable().default(null),
    /** issue 18; absent from score.json written before hang.culprit existed. */
    diagnosed: z.boolean().nullable().default(null),
    /** issue 27; absent from score.json written before the shell-tool scores existed. */
    hang_tax_ms: z.number().nullable().default(null),
    hang_tax_tokens: z.number().nullable().default(null),
    tool_return_ms: z.number().nullable().default(null),
    tool_end: z.enum(TOOL_ENDS).nullable().default(null),
    left_after_tool: z.number().int().nonnegative().nullable().default(null),
    left_after_exit: z.number().int().nonnegative().nullable().default(null),
    tool_result: z
      .strictObject({
        text: z.string(),
        held_output: z.boolean().nullable(),
        elapsed_ms: z.number().nullable(),
        reason: z.string().nullable(),
      })
      .nullable()
      .default(null),
    /** issue 47; absent from score.json written before the tool's own deadlines and the CLI's exit were scored. */
    tool_timeout_ms: z.number().nonnegative().nullable().default(null),
    agent_exit: z.enum(AGENT_EXITS).nullable().default(null),
    agent_exit_ms: z.number().nonnegative().nullable().default(null),
    agent_boot_ms: z.number().nonnegative().nullable().default(null),
    agent_boot_cpu_ms: z.number().nonnegative().nullable().default(null),
  }),
  mode: z.string().optional(),
  ticks: z.number().int().nonnegative(),
  tokens: z.number().nonnegative(),
  wallMs: z.number().nonnegative(),
  cpuMs: z.number().nonnegative().optional(),
  classificationAtEnd: z.string().nullable(),
  /** issue 20: the environment failed the attempt (results folder, sandbox killed from outside); absent when it did not. */
  fault: z.strictObject({ where: z.enum(['results', 'sandbox']), code: z.string(), message: z.string() }).optional(),
});

export const PassAtKSchema = z.strictObject({
  k: z.number().int().positive(),
  /** cases the estimate averages over */
  cases: z.number().int().positive(),
  passAtK: z.number().min(0).max(1),
  passHatK: z.number().min(0).max(1),
});

/** One variant: every attempt whose `variant` is this name (attempts = case × variant × repeat). */
export const GroupSummarySchema = z.strictObject({
  agent: z.string(),
  variant: z.string(),
  attempts: z.number().int().nonnegative(),
  hangAttempts: z.number().int().nonnegative(),
  controlAttempts: z.number().int().nonnegative(),
  /** attempts whose outcome was `error`: the harness or endpoint broke. They count as unsolved in every rate. */
  errors: z.number().int().nonnegative(),
  /** over all attempts */
  solved: GroupRateSchema,
  /** over hang attempts */
  reproduced: GroupRateSchema,
  interrupted: GroupRateSchema,
  fixed: GroupRateSchema,
  /** over control attempts */
  false_kill: GroupRateSchema,
  completed: GroupRateSchema,
  intact: GroupRateSchema,
  /** over all attempts */
  clean: GroupRateSchema,
  within_budget: GroupRateSchema,
  /** over hang attempts of cases with hang.culprit (version 3 always has it; older summaries are re-summarized on read) */
  diagnosed: GroupRateSchema,
  /** pass@k (Chen et al. 2021 unbiased estimator) and pass^k (all k solved) per case, averaged over cases; k = 1 … the fewest repeats of a case. */
  passAtK: z.array(PassAtKSchema),
  /** nearest-rank percentiles of every agent kill after onset, in budget or not, with seeded percentile-bootstrap 95 % intervals (null without latencies). */
  interruptLatencyMs: z.strictObject({
    count: z.number().int().nonnegative(),
    p50: z.number().nullable(),
    p50Low: z.number().nullable(),
    p50High: z.number().nullable(),
    p90: z.number().nullable(),
    p90Low: z.number().nullable(),
    p90High: z.number().nullable(),
  }),
  ticksPerAttempt: z.number().nullable(),
  /** all tokens of the group over all its ticks; null when no attempt ticked. */
  tokensPerTick: z.number().nullable(),
  tokensPerAttempt: z.number().nullable(),
  wallMsPerAttempt: z.number().nullable(),
});

export const ClassSummarySchema = z.strictObject({
  class: z.string(),
  kind: CaseKindSchema,
  agent: z.string(),
  variant: z.string(),
  attempts: z.number().int().nonnegative(),
  solved: RateSchema,
  /** over the hang attempts of the class; total 0 for a control class */
  interrupted: RateSchema,
  falseKills: z.number().int().nonnegative(),
  /** over the class's hang attempts with a culprit (absent in summaries written before it existed) */
  diagnosed: RateSchema.optional(),
});

/** One case class against the monitor's classification at the agent's kill or the repro's exit. */
export const ConfusionRowSchema = z.strictObject({
  class: z.string(),
  kind: CaseKindSchema,
  attempts: z.number().int().nonnegative(),
  /** attempts per classification at the end (`none`: no tick came first); classifications never seen are left out. */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  /** attempts whose classification at the end is one an observer would call hung (not progressing, not exited). */
  looksHung: z.number().int().nonnegative(),
});

/** The monitor's confusion matrix for one agent/variant, and the false-kill rate on its controls. */
export const ConfusionSchema = z.strictObject({
  agent: z.string(),
  variant: z.string(),
  /** classifications that occur, in the monitor's order, then `none`. */
  columns: z.array(z.string()),
  rows: z.array(ConfusionRowSchema),
  falseKills: RateSchema,
});

/** One case: per variant name, how many of its repeats solved. A variant that never ran the case has no cell. */
export const CaseMatrixRowSchema = z.strictObject({
  caseId: z.string(),
  class: z.string(),
  kind: CaseKindSchema,
  cells: z.record(
    z.string(),
    z.strictObject({ solved: z.number().int().nonnegative(), total: z.number().int().positive() }),
  ),
});

/** Per agent/variant: how the attempts of gated and hinted cases went (issue 12). */
export const LoopSummarySchema = z.strictObject({
  agent: z.string(),
  variant: z.string(),
  /** over attempts of cases with gates: all gates passed at the accepted finish. */
  gates_passed: RateSchema,
  gateRoundsPerAttempt: z.number().nullable(),
  /** over attempts of cases with hints: a hint reached the agent. */
  hint_given: RateSchema,
  /** solved, over hinted-case attempts where a hint fired, and where none did (hints off, or the trigger never came). */
  solved_after_hint: RateSchema,
  solved_without_hint: RateSchema,
  hintToActionMs: z.strictObject({
    count: z.number().int().nonnegative(),
    p50: z.number().nullable(),
    p90: z.number().nullable(),
  }),
});

/** One CLI variant × hang class of the shell-tool matrix (summary/shell-tools.ts); sums over its attempts. */
export const ShellToolRowSchema = z.strictObject({
  /** the variant without its monitor mode, so modes of one CLI pair up */
  cli: z.string(),
  variant: z.string(),
  agent: z.string(),
  mode: z.string().nullable(),
  class: z.string(),
  attempts: z.number().int().nonnegative(),
  /** an installed CLI's tool ran the repro (else only the hang tax applies) */
  installed: z.boolean(),
  /** attempts whose repro's tool result reached the model, and when (ms from the repro's start) */
  returned: z.number().int().nonnegative(),
  toolReturnMs: z.strictObject({ p50: z.number().nullable(), max: z.number().nullable() }),
  /** attempts per way the tool ended the repro (scores.tool_end); ways never seen are left out */
  ends: z.partialRecord(z.enum(TOOL_ENDS), z.number().int().nonnegative()),
  /** the repro's processes alive when its result reached the model, and when the CLI exited, summed (null: never observed) */
  leftAfterTool: z.number().int().nonnegative().nullable(),
  leftAfterExit: z.number().int().nonnegative().nullable(),
  /** tool results that held the command's output, and that stated an elapsed time; the reasons they gave */
  heldOutput: z.number().int().nonnegative(),
  statedElapsed: z.number().int().nonnegative(),
  reasons: z.array(z.string()),
  /** wall ms and model tokens between onset and the hang's end, summed */
  hangTaxMs: z.number().nullable(),
  hangTaxTokens: z.number().nullable(),
  /** the first attempt's tool result as the CLI sent it (cut at 4000 characters) */
  example: z.string().nullable(),
  /** the tool's longest own deadline as its adapter declares it (null: none declared); absent before issue 47 */
  toolTimeoutMs: z.number().nonnegative().nullable().default(null),
  /** attempts per way the CLI's process ended (scores.agent_exit), and the longest ms from its final answer to then */
  agentExit: z.partialRecord(z.enum(AGENT_EXITS), z.number().int().nonnegative()).default({}),
  agentExitMsMax: z.number().nonnegative().nullable().default(null),
});

export const RunSummarySchema = z.strictObject({
  summaryVersion: z.literal(SUMMARY_VERSION),
  runId: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  hangbenchVersion: z.string().nullable(),
  /** true when the harness was stopped (Ctrl-C, SIGTERM) before every attempt ran: `eval --resume` runs the rest. */
  interrupted: z.boolean().default(false),
  options: z.record(z.string(), z.unknown()),
  totals: z.strictObject({
    attempts: z.number().int().nonnegative(),
    solved: z.number().int().nonnegative(),
    errors: z.number().int().nonnegative(),
  }),
  /**
   * How CPU-bound the run was: the ms its attempts ran on a core (processes and verify steps) over the machine's cores
   * is the wall a run could not beat; `ratio` is the run's wall over it. Absent when no attempt counted its CPU.
   */
  cpuBound: z
    .strictObject({
      cpuMs: z.number().nonnegative(),
      cores: z.number().int().positive(),
      idealMs: z.number().nonnegative(),
      wallMs: z.number().nonnegative(),
      ratio: z.number().nonnegative().nullable(),
    })
    .optional(),
  groups: z.array(GroupSummarySchema),
  classes: z.array(ClassSummarySchema),
  /** optional: summaries written before it existed have none. */
  confusion: z.array(ConfusionSchema).optional(),
  /** how the bootstrap intervals were drawn: the same seed gives the same intervals. */
  statistics: z.strictObject({ seed: z.number().int(), resamples: z.number().int().positive() }),
  /** one family per compared metric, each over every two variants paired on (caseId, repeat): see schema-comparisons.ts. */
  comparisons: z.array(MetricComparisonSchema),
  /** the variants as points along one numeric axis, when they form one. */
  sweep: SweepSchema.nullable(),
  /** hang cases first, then by caseId. */
  caseMatrix: z.array(CaseMatrixRowSchema),
  /** gates and hints (cases that have them), per variant; absent or [] when no case had either. */
  loop: z.array(LoopSummarySchema).optional(),
  /** `eval --repeat-until decided`: which comparisons were decided at which round, and what each round cost. */
  sequential: SequentialSchema.optional(),
  /** the shell-tool matrix and the hang tax, per variant × hang class (issue 27); absent in summaries written before it */
  shellTools: z.array(ShellToolRowSchema).optional(),
  /** `--stdin` with two wirings or more: each case under each wiring (stdin-wiring.ts); absent otherwise. */
  stdinWiring: z.array(StdinWiringRowSchema).optional(),
  attempts: z.array(AttemptScoresSchema),
});

export type Rate = z.infer<typeof RateSchema>;
export type GroupSummary = z.infer<typeof GroupSummarySchema>;
export type ClassSummary = z.infer<typeof ClassSummarySchema>;
export type RunSummary = z.infer<typeof RunSummarySchema>;
export type Confusion = z.infer<typeof ConfusionSchema>;
export type PassAtKPoint = z.infer<typeof PassAtKSchema>;
export type GroupRate = z.infer<typeof GroupRateSchema>;
export type CaseMatrixRow = z.infer<typeof CaseMatrixRowSchema>;
export type ConfusionRow = z.infer<typeof ConfusionRowSchema>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Fails to compile when AttemptScoresSchema drifts from the shared AttemptScores interface. */
type _AttemptScoresSchemaMatches = Assert<Same<z.infer<typeof AttemptScoresSchema>, AttemptScores>>;
export type LoopSummary = z.infer<typeof LoopSummarySchema>;
export type ShellToolRow = z.infer<typeof ShellToolRowSchema>;
