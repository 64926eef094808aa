/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

export interface WilsonInterval {
  readonly low: number;
  readonly high: number;
}

/** Wilson score interval for `successes` out of `trials` at 95 %; null when there were no trials. */
export function wilson(successes: number, trials: number): WilsonInterval | null {
  if (trials <= 0) return null;
  if (successes < 0 || successes > trials) throw new RangeError(`wilson: ${successes} successes out of ${trials} trials`);
  const p = successes / trials;
  const z2 = Z95 * Z95;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  // exact at the edges: floating point would give 0.9999999999999999 for k = n
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === trials ? 1 : Math.min(1, centre + half),
  };
}

/**
 * Nearest-rank percentile (the smallest value with at least q % of the values at or below it),
 * so every reported figure is one that was observed. null for no values.
 */
export function percentile(values: readonly number[], q: number): number | null {
  if (q < 0 || q > 100) throw new RangeError(`percentile: q must be within 0..100, got ${q}`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((q / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}
