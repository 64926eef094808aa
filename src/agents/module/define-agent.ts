import type { Action } from '../../types/actions.js';
import type { AgentBudgets, AgentReporter, Observation } from '../protocol.js';
import type { MonitorMode } from '../../modes/index.js';

/**
 * What a module agent is given for one attempt: the same as every unprivileged agent, and no ground truth — the case's
 * hang class, onset, verify checks and fixture folder stay with the harness (the `task` observation carries the issue).
 */
export interface ModuleAgentContext {
  readonly caseId: string;
  /** 1-based repeat of the attempt. */
  readonly repeat: number;
  /** aborted when the attempt stops (a budget, the harness shutting down): stop calling your model. */
  readonly signal: AbortSignal;
  readonly budgets: AgentBudgets;
  /** the variant's monitor mode, durations already scaled: what you will be told without asking. */
  readonly monitor: MonitorMode;
  readonly timeScale: number;
  /** report model calls, so token budgets and the trace cover your agent (`response` counts tokens). */
  readonly reporter: AgentReporter;
}

/** One attempt of a module agent: an observation in, one action out (docs/agent-protocol.md lists both). */
export interface ModuleAgentSession {
  next(observation: Observation): Action | Promise<Action>;
  /** a message from "the user" (a case hint), given just before the observation it rides on. */
  hint?(text: string): void;
  close?(): void | Promise<void>;
}

/** The default export of `--agent ./my-agent.mjs`. */
export interface ModuleAgentDefinition {
  /** shown in the trace and the report (default: the file's name). */
  readonly name?: string;
  /** called once per attempt. */
  create(context: ModuleAgentContext): ModuleAgentSession | Promise<ModuleAgentSession>;
}

/**
 * Types a module agent: `export default defineAgent({ create: (context) => ({ next: (observation) => … }) })`.
 * It returns its argument; the type is the point.
 */
export function defineAgent<const T extends ModuleAgentDefinition>(definition: T): T {
  return definition;
}
