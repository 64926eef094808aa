import type { EgressRecord } from '../sandbox/index.js';
import type { Case } from '../types/case.js';
import type { Action } from '../types/actions.js';
import type { AgentNoteKind } from '../types/events.js';
import type { ExitInfo, KillRecord, Tick } from '../types/process.js';
import type { Template } from '../types/template.js';
import type { MonitorMode } from '../modes/index.js';
import type { InstalledAgentFactory } from './cli/index.js';
import type { TokenUsage } from './tokens.js';

export type { InstalledAgentFactory } from './cli/index.js';
export type { TokenUsage } from './tokens.js';

/**
 * What an agent is told. Action results and ticks are observations too. `notices`: background commands that exited
 * since the agent was last told anything, announced with whatever it is told next (the Hermes `/bg` completion notice).
 */
export type Observation = ObservationBody & { readonly notices?: readonly string[] };

export type ObservationBody =
  | { readonly type: 'task'; readonly issue: string; readonly repro: string; readonly files: readonly string[] }
  | {
      readonly type: 'result';
      readonly action: Action['type'];
      readonly ok: boolean;
      readonly message: string;
      readonly content?: string;
    }
  /** a tick as the agent's tick template rendered it; `text` is exactly what the trace's tick event records. */
  | { readonly type: 'tick'; readonly tick: Tick; readonly text: string }
  | {
      readonly type: 'exit';
      readonly commandId: number;
      readonly exit: ExitInfo;
      readonly output: string;
      readonly kill: KillRecord | null;
    }
  /** a case gate failed the agent's finish: the attempt goes on (docs/agent-protocol.md, "Gates"). */
  | ({ readonly type: 'gate' } & GateFailure);

/** Which gate failed, how, the end of its output, and how many more failed rounds of it the agent will be told about. */
export interface GateFailure {
  readonly gate: number;
  readonly command: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly reason: string;
  readonly output: string;
  readonly retriesLeft: number;
}

/** Hooks an agent may use to report model calls; the session records them as events. */
export interface AgentReporter {
  request(turn: number, messages: number): void;
  response(turn: number, usage: TokenUsage, latencyMs: number): void;
  /** something worth a line in the trace that is neither an action nor an error: a retry, a cache hit, a replay divergence. */
  note?(kind: AgentNoteKind, message: string): void;
  /** a request of the agent's own sandboxed process through the egress proxy: one `egress` trace event. */
  egress?(record: EgressRecord): void;
}

export type { AgentNoteKind } from '../types/events.js';

/** Budgets of the attempt, already scaled by --time-scale. */
export interface AgentBudgets {
  readonly tokens: number;
  readonly wallMs: number;
  readonly interruptMs: number;
}

/** Privileged view for the scripted oracle only: ground truth the other agents never get. */
export interface OracleView {
  readonly testCase: Case;
  /** true once the onset of the running command was seen. */
  onsetSeen(): boolean;
  /** the files solution.patch changes, with their patched content (paths relative to the workspace). */
  patchedFiles(): Promise<ReadonlyArray<{ readonly path: string; readonly content: string }>>;
}

export interface AgentContext {
  readonly testCase: Case;
  readonly reporter: AgentReporter;
  readonly signal: AbortSignal;
  readonly oracle?: OracleView;
  /** 1-based repeat index of the attempt (replay finds the matching recording; the cache keys on it). */
  readonly repeat: number;
  readonly budgets: AgentBudgets;
  /** the variant's monitor mode, durations scaled: what the agent will be told unasked (baseline polls in `poll`). */
  readonly monitor: MonitorMode;
  /** --time-scale, for agents that pace themselves (baseline's and the oracle's polls). */
  readonly timeScale: number;
}

/** One protocol: an observation in, one action out. */
export interface AgentSession {
  next(observation: Observation): Promise<Action>;
  /** a message from "the user" (a case hint), given just before the observation it rides on; agents without it ignore hints. */
  hint?(text: string): void;
  close?(): Promise<void>;
}

/** An agent the attempt talks to, one observation in and one action out (agents/*: baseline, openai, exec, …). */
export interface LoopAgentFactory {
  readonly kind?: 'loop';
  readonly name: string;
  /** true when the agent needs the OracleView. */
  readonly privileged?: boolean;
  /** how this agent's ticks read (an openai prompt's tick.md); the default tick when absent. The session renders them. */
  readonly tickTemplate?: Template;
  /** the token budget each tick is rendered within (an openai prompt's tickTokens); absent: whole. */
  readonly tickTokens?: number;
  create(context: AgentContext): AgentSession;
}

export type AgentFactory = LoopAgentFactory | InstalledAgentFactory;
