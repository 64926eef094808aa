import type { CaseMatrixRow, Comparison, RunSummary } from '../summary/schema.js';

/** The summary the reports read: summary.json as src/summary writes it (version 1 files are upgraded on read). */
export type ReportSummary = RunSummary;
export type VariantComparison = Comparison;
export type { CaseMatrixRow };

export function comparisonsOf(summary: ReportSummary): readonly VariantComparison[] {
  return summary.comparisons;
}

export function caseMatrixOf(summary: ReportSummary): readonly CaseMatrixRow[] {
  return summary.caseMatrix;
}

/** `0.012`, `<0.001`, or – */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '–';
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}
