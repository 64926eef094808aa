import { z } from 'zod';
import { ActionSchema } from './actions.js';
import { CaseKindSchema } from './case.js';
import { CulpritSchema } from './culprit.js';
import {
  CLASSIFICATIONS,
  ExitInfoSchema,
  ISOLATIONS,
  KILL_MECHANISMS,
  KillRecordSchema,
  TickOutputSchema,
  TreeSnapshotSchema,
} from './process.js';
import { OUTCOMES } from './scores.js';
import { MonitorModeSchema } from '../modes/index.js';
import { VariantSpecSchema } from './variant.js';
import { LimitKindSchema } from './limits.js';
import { StdinWiringSchema } from './terminal.js';

/** 2: variants (attempt.start has the variant spec), ticks recorded as delivered, tick.dropped, no tick.prompt. */
export const TRACE_SCHEMA_VERSION = 2;

/** Where an attempt's wall budget came from (attempt.start `budgets.wallFrom`). */
export const WALL_BUDGET_SOURCES = ['case', 'variant', 'tool-timeout'] as const;
export type WallBudgetSource = (typeof WALL_BUDGET_SOURCES)[number];

/** What an agent's note is about: a retry, a cache hit, a replay divergence, or the agent's own remark. */
const AGENT_NOTE_KINDS = ['retry', 'cache', 'divergence', 'agent'] as const;
export type AgentNoteKind = (typeof AGENT_NOTE_KINDS)[number];

const UsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  cachedTokens: z.number().default(0),
});

/** Fields every event carries: a per-attempt sequence and ms since attempt start on a monotonic clock. */
const base = { seq: z.number().int().nonnegative(), t: z.number().nonnegative() };

export const TraceEventSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('attempt.start'),
    schemaVersion: z.number().int(),
    attemptId: z.string(),
    caseId: z.string(),
    kind: CaseKindSchema,
    class: z.string(),
    variant: z.string(),
    repeat: z.number().int(),
    agent: z.string(),
    timeScale: z.number(),
    /** the variant as resolved (durations unscaled), and its monitor mode with durations scaled. */
    variantSpec: VariantSpecSchema,
    monitor: MonitorModeSchema,
    /** budgets after --time-scale: wall and interrupt in ms. */
    budgets: z.object({
      tokens: z.number(),
      wallMs: z.number(),
      interruptMs: z.number(),
      /**
       * where the wall budget came from: the case's (scaled), the variant's override (scaled), or — `--model probe` — the
       * CLI shell tool's longest own deadline plus a margin, unscaled. Absent in traces written before it: case or variant.
       */
      wallFrom: z.enum(WALL_BUDGET_SOURCES).optional(),
    }),
    /** (installed agents whose adapter declares them) the CLI shell tool's own deadlines when given no timeout, ms. */
    toolTimeouts: z.record(z.string(), z.number().nonnegative()).optional(),
    /** how many gates and hints the case has (absent in traces written before they existed: none). */
    gates: z.number().int().nonnegative().optional(),
    hints: z.number().int().nonnegative().optional(),
    /** (hang cases that declare one) the case's hang.culprit, so `diagnosed` is scored from the trace alone. */
    culprit: CulpritSchema.optional(),
    mechanism: z.enum(KILL_MECHANISMS),
    /** how the attempt's commands were isolated: a bubblewrap jail, or the harness's own user (the fallback). */
    isolation: z.enum(ISOLATIONS),
    startedAt: z.string(),
  }),
  z.object({ ...base, type: z.literal('agent.request'), turn: z.number().int(), messages: z.number().int() }),
  z.object({
    ...base,
    type: z.literal('agent.response'),
    turn: z.number().int(),
    usage: UsageSchema,
    latencyMs: z.number(),
  }),
  z.object({ ...base, type: z.literal('action'), turn: z.number().int(), action: ActionSchema }),
  z.object({
    ...base,
    type: z.literal('action.result'),
    turn: z.number().int(),
    ok: z.boolean(),
    /** short description of what happened, or the error shown to the agent. */
    message: z.string(),
  }),
  z.object({
    ...base,
    type: z.literal('command.start'),
    commandId: z.number().int(),
    command: z.string(),
    pid: z.number().int(),
    background: z.boolean(),
    /** true when the command runs the case's repro (contains its text); only these can complete a control. */
    isRepro: z.boolean(),
    /**
     * how its stdin was wired (`--stdin`, else the case's terminal): an open pipe, `/dev/null` or a pty; absent for a
     * command an installed CLI started itself, and in older traces.
     */
    stdin: StdinWiringSchema.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('output'),
    commandId: z.number().int(),
    bytes: z.number(),
    totalBytes: z.number(),
  }),
  z.object({
    ...base,
    type: z.literal('onset'),
    commandId: z.number().int(),
    elapsedMs: z.number(),
    trigger: z.string(),
    /** ms the command's tick clock (CPU-available time) had fallen behind the wall by the onset; absent without a schedule. */
    cpuWaitMs: z.number().optional(),
  }),
  z.object({
    ...base,
    /** a tick as delivered to the agent: ticks that fired while it was deciding arrive merged (mergedSeqs). */
    type: z.literal('tick'),
    commandId: z.number().int(),
    /** the last tick merged into this one; decisions refer to it. */
    tickSeq: z.number().int(),
    mergedSeqs: z.array(z.number().int()).min(1),
    /** schedule: pushed by the mode's schedule; status: asked for (poll, or a wait's timeout / until_quiet). */
    source: z.enum(['schedule', 'status']),
    elapsedMs: z.number(),
    /** when the schedule wanted the last merged tick, in CPU-available ms; elapsedMs − dueMs − cpuWaitMs is its lateness. */
    dueMs: z.number().optional(),
    /** ms the load had taken from the command by then (waits for a core others held): the tick came that much later. */
    cpuWaitMs: z.number().optional(),
    sinceOutputMs: z.number(),
    totalOutputBytes: z.number(),
    output: TickOutputSchema,
    snapshot: TreeSnapshotSchema,
    classification: z.enum(CLASSIFICATIONS),
    reason: z.string(),
    /** host pid of the process the reason names as the cause (absent in older traces). */
    culprit: z.number().nullable().optional(),
    /** exactly the text the agent was shown (its tick template), and its o200k token count. */
    rendered: z.string(),
    renderedTokens: z.number().int(),
    /** false: what a monitor would have said, never shown (mode none); absent: delivered. inband: written into the output. */
    delivered: z.boolean().optional(),
  }),
  /** ticks that fired but never reached the agent: the command exited (or was killed) before the agent asked again. */
  z.object({
    ...base,
    type: z.literal('tick.dropped'),
    commandId: z.number().int(),
    tickSeqs: z.array(z.number().int()),
    classification: z.enum(CLASSIFICATIONS),
  }),
  z.object({ ...base, type: z.literal('agent.note'), kind: z.enum(AGENT_NOTE_KINDS), message: z.string() }),
  /**
   * (installed agents) the CLI's boot: from its start to its first model request, in wall ms and in ms its processes ran
   * on a core (the attempt's sandbox, the CLI being all that runs in it then).
   */
  z.object({
    ...base,
    type: z.literal('agent.boot'),
    wallMs: z.number().nonnegative(),
    cpuMs: z.number().nonnegative(),
  }),
  /**
   * (installed agents) how the CLI's process ended: on its own (`ended: false`, with its code or signal), or by the
   * harness because it had not exited `graceMs` after its final answer (`ended: true`). `afterFinalMs`: ms from its last
   * final answer to then (null: it gave none). Absent when the attempt stopped the CLI first, and in older traces.
   */
  z.object({
    ...base,
    type: z.literal('agent.exit'),
    ended: z.boolean(),
    exitCode: z.number().int().nullable(),
    signal: z.string().nullable(),
    afterFinalMs: z.number().nonnegative().nullable(),
    graceMs: z.number().nonnegative(),
  }),
  /** one request of a sandboxed agent process through the egress proxy (no bodies). */
  z.object({
    ...base,
    type: z.literal('egress'),
    host: z.string(),
    port: z.number().int(),
    method: z.string(),
    status: z.number().int(),
    allowed: z.boolean(),
    bytes: z.number().int(),
    durationMs: z.number(),
  }),
  z.object({
    ...base,
    type: z.literal('decision'),
    commandId: z.number().int(),
    tickSeq: z.number().int(),
    action: z.string(),
  }),
  z.object({
    ...base,
    type: z.literal('kill'),
    commandId: z.number().int(),
    ...KillRecordSchema.shape,
    /** ms the command's tick clock had fallen behind the wall when the kill was decided; absent without a schedule. */
    cpuWaitMs: z.number().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('command.exit'),
    commandId: z.number().int(),
    ...ExitInfoSchema.shape,
    killed: z.boolean(),
  }),
  z.object({
    ...base,
    type: z.literal('file.write'),
    path: z.string(),
    bytes: z.number(),
    via: z.enum(['write', 'edit']),
  }),
  z.object({
    ...base,
    type: z.literal('limit'),
    kind: LimitKindSchema,
    value: z.number(),
    limit: z.number(),
    /** wall: ms the deadline had moved past `limit` because the attempt's processes waited for a CPU (the load). */
    cpuWaitMs: z.number().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('verify'),
    step: z.number().int(),
    command: z.string(),
    passed: z.boolean(),
    exitCode: z.number().nullable(),
    timedOut: z.boolean(),
    durationMs: z.number(),
    /** ms its processes waited runnable for a CPU; the timeout was extended by as much (absent in older traces). */
    cpuWaitMs: z.number().optional(),
    /** ms its processes ran on a CPU (absent in older traces). */
    cpuMs: z.number().optional(),
    /** present when it timed out with the wait for a CPU at its cap: the load, not the fix, may explain the timeout. */
    saturated: z.literal(true).optional(),
    /** the machine's 1-minute load average then, with `saturated`. */
    load1: z.number().optional(),
    /** why it failed, or '' */
    reason: z.string(),
    outputTail: z.string(),
  }),
  z.object({
    ...base,
    type: z.literal('gate.start'),
    /** 1-based: the agent's nth finish that ran the gates. */
    round: z.number().int().positive(),
    gate: z.number().int().nonnegative(),
    commandId: z.number().int(),
    command: z.string(),
    timeoutMs: z.number(),
  }),
  z.object({
    ...base,
    type: z.literal('gate.result'),
    round: z.number().int().positive(),
    gate: z.number().int().nonnegative(),
    passed: z.boolean(),
    exitCode: z.number().nullable(),
    signal: z.string().nullable(),
    timedOut: z.boolean(),
    durationMs: z.number(),
    /** why it failed, or '' */
    reason: z.string(),
    outputTail: z.string(),
    /** this gate's failed rounds so far, and the case's allowance: failures > retries accepts the finish. */
    failures: z.number().int().nonnegative(),
    retries: z.number().int().nonnegative(),
  }),
  z.object({
    ...base,
    type: z.literal('hint'),
    /** index in the case's hints; written when the hint reached the agent, with the observation after its trigger. */
    hint: z.number().int().nonnegative(),
    trigger: z.string(),
    text: z.string(),
    /** ms since attempt start when the trigger came due. */
    dueMs: z.number(),
  }),
  z.object({
    ...base,
    type: z.literal('sandbox.limit'),
    /** a sandbox limit refused the program something: not the agent's budget, so within_budget is unaffected. */
    kind: z.enum(['processes', 'memory']),
    limit: z.number(),
    /** forks refused, or processes the OOM killer ended. */
    hits: z.number().int(),
  }),
  z.object({
    ...base,
    type: z.literal('leak'),
    processes: z.array(z.object({ pid: z.number(), command: z.string() })),
  }),
  z.object({
    ...base,
    /** an installed agent's model call, as the model proxy received it; the body is in the attempt's model/ folder. */
    type: z.literal('model.request'),
    request: z.number().int().positive(),
    api: z.enum(['chat', 'responses', 'messages', 'gemini', 'other']),
    path: z.string(),
    model: z.string().nullable(),
    stream: z.boolean(),
    bytes: z.number().int(),
    bodyFile: z.string(),
    /** bytes of the body not written to bodyFile (the proxy's body cap). */
    cutBytes: z.number().int().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('model.response'),
    request: z.number().int().positive(),
    status: z.number().int(),
    usage: UsageSchema,
    /** 'usage': the endpoint's own counts; 'counted': o200k counts of the request and response text (no usage sent). */
    tokensFrom: z.enum(['usage', 'counted']),
    bytes: z.number().int(),
    latencyMs: z.number(),
    /** why the proxy answered with an error itself (the token budget, an unreachable endpoint), or absent. */
    refused: z.string().optional(),
    /** the answer started but did not end: the agent went away, or the endpoint broke the stream off. */
    broken: z.string().optional(),
    /** `--model probe`: the policy's step for this call, the tool it called (null: a text answer), and why. */
    probe: z
      .object({
        step: z.enum(['run', 'poll', 'interrupt', 'finish', 'aside']),
        tool: z.string().nullable(),
        reason: z.string(),
      })
      .optional(),
    /** the answer called no tool, to a call that offered tools: the agent's final answer (absent in older traces). */
    final: z.boolean().optional(),
    bodyFile: z.string(),
    cutBytes: z.number().int().optional(),
  }),
  /** (installed agents) the repro's processes alive when a model call came in, or when the CLI exited: left_after_tool, left_after_exit. */
  z.object({
    ...base,
    type: z.literal('command.tree'),
    commandId: z.number().int(),
    at: z.enum(['model.request', 'agent.exit']),
    request: z.number().int().positive().optional(),
    alive: z.array(z.object({ pid: z.number().int(), command: z.string() })),
  }),
  /** (installed agents) a tool result the first time a model request carried it, with the call it answers, as the CLI sent it. */
  z.object({
    ...base,
    type: z.literal('tool.result'),
    request: z.number().int().positive(),
    callId: z.string(),
    tool: z.string(),
    /** the call's arguments, as text. */
    args: z.string(),
    /** the result exactly as sent, up to a cap; `bytes` is its whole length. */
    text: z.string(),
    bytes: z.number().int(),
  }),
  /** a wait that had a deadline passed it: what was given up on, and after how long (a teardown that would have hung). */
  z.object({ ...base, type: z.literal('wait.expired'), what: z.string(), waitedMs: z.number() }),
  z.object({ ...base, type: z.literal('error'), where: z.string(), message: z.string() }),
  z.object({
    ...base,
    type: z.literal('attempt.end'),
    /** completed: the agent finished; limit: a budget stopped it; error: the harness or endpoint broke (not an agent FAIL). */
    outcome: z.enum(OUTCOMES),
    clean: z.boolean(),
    wallMs: z.number(),
    agentWallMs: z.number(),
    /**
     * ms of the agent phase its processes waited for a CPU, as far as the wall budget counts it (capped): the budget
     * moved by this much, and within_budget compares agentWallMs less it. Absent in traces from before it was counted.
     */
    cpuWaitMs: z.number().optional(),
    tokens: z.number(),
    /** ms the attempt's processes (the agent and its commands; verify's are on its verify events) ran on a core. */
    cpuMs: z.number().nonnegative().optional(),
  }),
]);

export type TraceEvent = z.infer<typeof TraceEventSchema>;
export type TraceEventType = TraceEvent['type'];
export type EventOf<K extends TraceEventType> = Extract<TraceEvent, { type: K }>;
type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** An event before the trace writer stamps `seq` and `t`; readonly so the shared runtime types fit it. */
export type EventInput = TraceEvent extends infer E
  ? E extends TraceEvent
    ? DeepReadonly<Omit<E, 'seq' | 't'>>
    : never
  : never;
