/**
 * Nearest-rank percentile (the smallest value with at least q % of the values at or below it),
 * so every reported figure is one that was observed. null for no values.
 */
export function percentile(values: readonly number[], q: number): number | null {
  if (q < 0 || q > 100) throw new RangeError(`percentile: q must be within 0..100, got ${q}`);
  if (values.length === 0) return null;
  return percentileOfSorted(
    [...values].sort((a, b) => a - b),
    q,
  );
}

/** percentile() of values already sorted ascending, for callers that take many percentiles of one sample. */
export function percentileOfSorted(sorted: readonly number[], q: number): number | null {
  const rank = Math.max(1, Math.ceil((q / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}
