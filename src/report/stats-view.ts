import type { RunSummary } from './summary-schema.js';

/**
 * The per-variant statistics a summary may carry (summaryVersion 2: pairwise tests and a case × variant matrix).
 * Read as optional so the renderers work on summaries written before them.
 */
export interface PairedTest {
  readonly test: string;
  readonly pairs: number;
  readonly p: number | null;
  readonly pAdjusted?: number | null;
}

export interface VariantComparison {
  readonly a: string;
  readonly b: string;
  readonly solved?: PairedTest & { readonly aOnly?: number; readonly bOnly?: number };
  readonly latency?: PairedTest & { readonly method?: string; readonly statistic?: number | null };
}

export interface CaseMatrixRow {
  readonly caseId: string;
  readonly kind: string;
  readonly cells: Readonly<Record<string, { readonly solved: number; readonly total: number }>>;
}

/** A summary as the report reads it: today's fields, and the statistics when present. */
export type ReportSummary = Omit<RunSummary, 'summaryVersion'> & {
  readonly summaryVersion: number;
  readonly comparisons?: readonly VariantComparison[];
  readonly caseMatrix?: readonly CaseMatrixRow[];
};

export function comparisonsOf(summary: ReportSummary): readonly VariantComparison[] {
  return Array.isArray(summary.comparisons) ? summary.comparisons : [];
}

export function caseMatrixOf(summary: ReportSummary): readonly CaseMatrixRow[] {
  return Array.isArray(summary.caseMatrix) ? summary.caseMatrix : [];
}

/** `0.012`, `<0.001`, or – */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '–';
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}
