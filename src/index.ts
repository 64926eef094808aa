/**
 * The library API of `import … from 'hangbench'` (docs/api.md). Everything here is stable across patch releases;
 * anything reached by a deeper path is not.
 */
// The .d.ts name Node's types: load @types/node (a dependency) even for a consumer whose tsconfig `types` omits it.
/// <reference types="node" preserve="true" />
export { runEval, type RunHooks, type RunResult } from './run/index.js';
export type { EvalOptionsInput, EvalOptions } from './run/index.js';
export type { Reporter, RunInfo, AttemptInfo, TickEvent } from './run/index.js';
export { loadCases, type LoadedCases } from './cases/load-cases.js';
export { validateCases, type ValidationReport } from './cases/validate.js';
export { BUNDLED_CASES_DIR, caseSource, type CaseOrigin, type CaseSource } from './cases/case-source.js';
export { checkCases, type CheckCasesInput, type CheckCasesResult, type CaseSoundness } from './check/check-cases.js';
export { scoreAttempt, scoreAttempt as score } from './scorers/index.js';
export { readTrace, parseTrace } from './trace/read.js';
export { summarize, type SummaryMeta } from './summary/summarize.js';
export { readRunSummary, parseRunSummary } from './summary/read.js';
export { RunSummarySchema, SUMMARY_VERSION, type RunSummary, type GroupSummary, type Rate } from './summary/schema.js';
export type { MetricComparison, RateEffect, ShiftEffect, Sweep, SweepPoint } from './summary/schema-comparisons.js';
export {
  defineAgent,
  type ModuleAgentContext,
  type ModuleAgentDefinition,
  type ModuleAgentSession,
} from './agents/module/define-agent.js';
export type {
  Observation,
  ObservationBody,
  AgentBudgets,
  AgentReporter,
  TokenUsage,
  GateFailure,
} from './agents/protocol.js';
export { ActionSchema, type Action, type ActionType } from './types/actions.js';
export {
  TraceEventSchema,
  TRACE_SCHEMA_VERSION,
  type TraceEvent,
  type TraceEventType,
  type EventOf,
} from './types/events.js';
export type { AttemptScores } from './types/scores.js';
export { CaseFileSchema, type Case, type CaseFile } from './types/case.js';
export type { VariantSpec, AgentSpec } from './types/variant.js';
export type { MonitorMode } from './modes/index.js';
export type { Tick, ExitInfo, KillRecord } from './types/process.js';
export { HangbenchError, INPUT_ERROR_CODES, type HangbenchErrorCode } from './types/errors.js';
