/** The run's summary: per-variant statistics, paired comparisons and the case matrix, aggregated from attempt scores. */
export { summarize, rate, type SummaryMeta } from './summarize.js';
export {
  SUMMARY_VERSION,
  RunSummarySchema,
  AttemptScoresSchema,
  type CaseMatrixRow,
  type ClassSummary,
  type GroupRate,
  type Confusion,
  type GroupSummary,
  type LoopSummary,
  type Rate,
  type RunSummary,
} from './schema.js';
export { summarizeConfusion } from './confusion.js';
export { parseRunSummary, readRunSummary } from './read.js';
export { summarizeLoop } from './loop.js';
export { ALPHA } from './comparisons.js';
export { COMPARED_METRICS, type ComparedMetric } from './compared-metrics.js';
export type { MetricComparison, Over, RateEffect, ShiftEffect, Sweep, SweepPoint } from './schema-comparisons.js';
export { RATE_METRICS, countsOver } from './compared-metrics.js';
export type { ComparedRate } from './compared-metrics.js';
export { groupBy } from './group-by.js';
export { pairUp } from './pair-up.js';
export type { Pair } from './pair-up.js';
export { planRepeats } from './plan.js';
export type { Detect, Plan } from './plan.js';
export type { Sequential, SequentialComparison, SequentialRound } from './schema-sequential.js';
export type { ShellToolRow } from './schema.js';
export type { StdinWiringRow } from './stdin-wiring.js';
