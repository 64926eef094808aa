/** z for a two-sided 95 % interval. */
export const Z95 = 1.959963984540054;

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** Wilson score interval for `successes` out of `trials` at 95 %; null when there were no trials. */
export function wilson(successes: number, trials: number): Interval | null {
  if (trials <= 0) return null;
  if (successes < 0 || successes > trials)
    throw new RangeError(`wilson: ${successes} successes out of ${trials} trials`);
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
