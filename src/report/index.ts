/** Renderers and reporters: summary.json (src/summary) and traces into something to read. */
export { renderAttemptTable, renderClassTable, renderSummaryTable, type RenderOptions } from './terminal/table.js';
export { renderConfusion } from './terminal/confusion.js';
export { renderComparisonTable } from './terminal/comparison-table.js';
export { renderPairwiseTable } from './terminal/pairwise-table.js';
export { renderCaseMatrix } from './terminal/case-matrix-table.js';
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
export { createProgressReporter, finishedLine } from './terminal/progress.js';
export { renderComparisonMarkdown, renderComparisonText } from './compare/compare-render.js';
export { compareSummaries } from './compare/compare.js';
export { paint } from './format.js';
export { startViewServer } from './html/view-server.js';
export { renderLoopTable } from './terminal/loop-table.js';
export { mergeRuns } from './merge.js';
export { readSummaryFile } from './run-folder.js';
export { renderSequential } from './terminal/sequential-text.js';
export { renderShellToolsTable } from './terminal/shell-tools-table.js';
export { renderStdinWiringTable } from './stdin-wiring-view.js';
export type { ReportSummary } from './stats-view.js';
export { newTable, tableToString } from './terminal/table-style.js';
export { REPORT_FILES, rederiveRun, writeRunReports } from './write-reports.js';
