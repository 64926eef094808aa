export { summarize, rate, type SummaryMeta } from './summary.js';
export {
  SUMMARY_VERSION,
  RunSummarySchema,
  AttemptScoresSchema,
  type CaseMatrixRow,
  type ClassSummary,
  type Comparison,
  type Confusion,
  type GroupSummary,
  type Rate,
  type RunSummary,
} from './summary-schema.js';
export { renderAttemptTable, renderClassTable, renderSummaryTable, type RenderOptions } from './table.js';
export { renderConfusion, summarizeConfusion } from './confusion.js';
export { parseRunSummary, readRunSummary } from './read-summary.js';
export { renderComparisonTable } from './comparison-table.js';
export { renderPairwiseTable } from './pairwise-table.js';
export { renderCaseMatrix } from './case-matrix-table.js';
export { shouldUseColor } from './format.js';
export {
  createReporters,
  isLive,
  registerReporter,
  reporterNames,
  type AttemptInfo,
  type Reporter,
  type ReporterContext,
  type ReporterFactory,
  type ReporterFailure,
  type ReporterHook,
  type ReportStream,
  type RunInfo,
  type TickEvent,
} from './reporters.js';
export { createProgressReporter, finishedLine, missedScores } from './progress.js';
