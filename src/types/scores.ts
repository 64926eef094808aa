import type { CaseKind } from './case.js';

/**
 * The yes/no scores a variant has a rate of (summary.json's `groups[]`), each a field of `scores`; the metric table
 * (summary/compared-metrics.ts) says what each counts over, and a group's rates are read from this list.
 */
export const RATE_NAMES = [
  'solved',
  'reproduced',
  'interrupted',
  'fixed',
  'diagnosed',
  'false_kill',
  'completed',
  'intact',
  'clean',
  'within_budget',
] as const;
export type RateName = (typeof RATE_NAMES)[number];

/** completed: the agent finished; limit: a budget stopped it; error: the harness or endpoint broke (not an agent FAIL). */
export const OUTCOMES = ['completed', 'limit', 'error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** How an installed CLI's shell tool ended the repro, as of its result reaching the model (scorers/shell-tool.ts). */
export const TOOL_ENDS = [
  'returned-running',
  'killed-tree',
  'killed-leader',
  'exited',
  'ended-by-harness',
  'budget-first',
  'never-returned',
] as const;
export type ToolEnd = (typeof TOOL_ENDS)[number];

/** How an installed CLI's process ended (scores.agent_exit). */
export const AGENT_EXITS = ['exited', 'ended', 'stopped'] as const;
export type AgentExit = (typeof AGENT_EXITS)[number];

/** The repro's tool result exactly as the CLI sent it, and what it tells the model. */
export interface ToolResultScore {
  readonly text: string;
  /** a line the command printed is in it; null when the command printed nothing. */
  readonly held_output: boolean | null;
  readonly elapsed_ms: number | null;
  readonly reason: string | null;
}

/** Score names are the public JSON keys of score.json and summary.json. */
export interface AttemptScores {
  readonly caseId: string;
  readonly kind: CaseKind;
  readonly class: string;
  readonly variant: string;
  readonly agent: string;
  readonly repeat: number;
  /** error is a harness/endpoint ERROR, never an agent FAIL. */
  readonly outcome: Outcome;
  readonly scores: {
    /** hang: onset happened in a command the agent started, before its first edit. null for controls. */
    readonly reproduced: boolean | null;
    /** hang: the agent killed that command after onset within budgets.interrupt. null for controls. */
    readonly interrupted: boolean | null;
    /** ms from onset to the agent's kill; null when there was no such kill. */
    readonly interrupt_latency: number | null;
    /** hang: every verify step passed after the agent (it fixed the cause). null for controls. */
    readonly fixed: boolean | null;
    /** control: every verify step passed after the agent (it broke nothing). null for hangs. */
    readonly intact: boolean | null;
    /** control: the agent killed a healthy command. null for hangs. */
    readonly false_kill: boolean | null;
    /** control: a command the agent ran exited 0 on its own. null for hangs. */
    readonly completed: boolean | null;
    readonly within_budget: boolean;
    readonly clean: boolean;
    readonly solved: boolean;
    /** (hang cases with hang.culprit) the first tick classified as hung names the culprit. null elsewhere. */
    readonly diagnosed: boolean | null;
    /** (cases with gates) every gate passed at the accepted finish, and how many gate rounds the finishes ran. */
    readonly gates_passed: boolean | null;
    readonly gate_rounds: number | null;
    /** (cases with hints) a hint reached the agent; ms from the first hint to its next kill, input or edit. */
    readonly hint_given: boolean | null;
    readonly hint_to_action: number | null;
    /** wall ms and model tokens between the hang's onset and its end; null without an onset. */
    readonly hang_tax_ms: number | null;
    readonly hang_tax_tokens: number | null;
    /**
     * (installed agents; scorers/shell-tool.ts) ms from the repro's start to its tool result reaching the model (the
     * first model request that carried it; null: never); how the CLI's shell tool ended the repro as of then; the
     * repro's processes alive then and when the CLI exited (null: not observed); the result as sent, and what it says.
     */
    readonly tool_return_ms: number | null;
    readonly tool_end: ToolEnd | null;
    readonly left_after_tool: number | null;
    readonly left_after_exit: number | null;
    readonly tool_result: ToolResultScore | null;
    /** (installed agents) the tool's longest own deadline as the adapter declares it (null: none declared). */
    readonly tool_timeout_ms: number | null;
    /**
     * (installed agents) how the CLI's process ended — `exited` by itself, `ended` by the harness because it had not
     * exited the grace after its final answer, `stopped` with the attempt (a budget or a shutdown came first) — and ms
     * from its last final answer to then (null without one).
     */
    readonly agent_exit: AgentExit | null;
    readonly agent_exit_ms: number | null;
    /** (installed agents) the CLI's start to its first model request, wall and CPU ms: see scorers/agent-boot.ts. */
    readonly agent_boot_ms: number | null;
    readonly agent_boot_cpu_ms: number | null;
  };
  /** the variant's monitor mode (absent in scores written before it was kept). */
  readonly mode?: string;
  readonly ticks: number;
  readonly tokens: number;
  readonly wallMs: number;
  /** ms on a core: the attempt's processes and its verify steps (absent in traces from before it was counted). */
  readonly cpuMs?: number;
  /** the monitor's classification at the agent's kill, or at the repro's exit; null when neither happened. */
  readonly classificationAtEnd: string | null;
  /** the harness's environment failed the attempt — the results folder refused a write, the sandbox was killed from outside: an ERROR that `--resume` runs again. */
  readonly fault?: { readonly where: 'results' | 'sandbox'; readonly code: string; readonly message: string };
}
