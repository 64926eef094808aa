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
