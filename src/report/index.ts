/** Renderers and reporters: summary.json (src/summary) and traces into something to read. */
export { renderAttemptTable, renderClassTable, renderSummaryTable, type RenderOptions } from './table.js';
export { renderConfusion } from './confusion.js';
export { renderComparisonTable } from './comparison-table.js';
export { renderPairwiseTable } from './pairwise-table.js';
export { renderCaseMatrix } from './case-matrix-table.js';
export { shouldUseColor } from './format.js';
export {
  isLive,
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
export { createProgressReporter, finishedLine } from './progress.js';
