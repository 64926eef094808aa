import { percentileOfSorted } from './descriptive.js';
import { mulberry32 } from './random.js';
import type { Interval } from './wilson.js';
import { DEFAULTS } from '../defaults.js';

export interface BootstrapOptions {
  readonly seed: number;
  /** resamples drawn; 2000 keeps the 2.5 % / 97.5 % ends stable to a rank or two. */
  readonly resamples: number;
}

export const DEFAULT_BOOTSTRAP: BootstrapOptions = { seed: DEFAULTS.seed, resamples: DEFAULTS.bootstrapResamples };

/**
 * Percentile-bootstrap 95 % intervals for nearest-rank percentiles of `values`, one per entry of `qs`:
 * resample with replacement, take each percentile of every resample, report the 2.5th and 97.5th of those.
 * The same seed gives the same intervals. Empty for no values.
 */
export function bootstrapPercentiles(
  values: readonly number[],
  qs: readonly number[],
  options: BootstrapOptions = DEFAULT_BOOTSTRAP,
): Array<Interval | null> {
  if (values.length === 0) return qs.map(() => null);
  if (!Number.isInteger(options.resamples) || options.resamples < 1)
    throw new RangeError(`bootstrap: resamples must be a positive integer, got ${options.resamples}`);
  const random = mulberry32(options.seed);
  const estimates = qs.map(() => new Array<number>(options.resamples));
  const resample = new Array<number>(values.length);
  for (let draw = 0; draw < options.resamples; draw += 1) {
    for (let index = 0; index < values.length; index += 1)
      resample[index] = values[Math.floor(random() * values.length)] as number;
    resample.sort((a, b) => a - b);
    qs.forEach((q, at) => {
      (estimates[at] as number[])[draw] = percentileOfSorted(resample, q) as number;
    });
  }
  return estimates.map((column) => {
    column.sort((a, b) => a - b);
    return { low: percentileOfSorted(column, 2.5) as number, high: percentileOfSorted(column, 97.5) as number };
  });
}

/**
 * The median paired difference a − b with a percentile-bootstrap 95 % interval, resampling the pairs (each pair's
 * difference) with replacement. The differences are sorted first, so the order the pairs come in does not change the
 * draw. null for no pairs.
 */
export function medianDifference(
  pairs: ReadonlyArray<readonly [number, number]>,
  options: BootstrapOptions = DEFAULT_BOOTSTRAP,
): ({ median: number } & Interval) | null {
  const differences = pairs.map(([a, b]) => a - b).sort((x, y) => x - y);
  const [interval] = bootstrapPercentiles(differences, [50], options);
  if (!interval) return null;
  return { median: percentileOfSorted(differences, 50) as number, ...interval };
}
