/** The run's summary: per-variant statistics, paired comparisons and the case matrix, aggregated from attempt scores. */
export { summarize, rate, type SummaryMeta } from './summarize.js';
export {
  SUMMARY_VERSION,
  RunSummarySchema,
  AttemptScoresSchema,
  type CaseMatrixRow,
  type ClassSummary,
  type Comparison,
  type Confusion,
  type GroupSummary,
  type LoopSummary,
  type Rate,
  type RunSummary,
} from './schema.js';
export { summarizeConfusion } from './confusion.js';
export { parseRunSummary, readRunSummary } from './read.js';
export { summarizeLoop } from './loop.js';
