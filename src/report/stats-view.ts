import type { CaseMatrixRow, RunSummary } from '../summary/index.js';
import type { MetricComparison, Sweep } from '../summary/index.js';

/** The summary the reports read: summary.json as src/summary writes it (older versions are upgraded on read). */
export type ReportSummary = RunSummary;
export type { CaseMatrixRow, MetricComparison };

export function comparisonsOf(summary: ReportSummary): readonly MetricComparison[] {
  return summary.comparisons;
}

export function caseMatrixOf(summary: ReportSummary): readonly CaseMatrixRow[] {
  return summary.caseMatrix;
}

export function sweepOf(summary: ReportSummary): Sweep | null {
  return summary.sweep;
}

/** `0.012`, `<0.001`, or – */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '–';
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}
