import { binomialHalfCdf } from './binomial.js';

export interface McNemarResult {
  readonly test: 'mcnemar-exact';
  /** discordant pairs: only the first of the two solved, only the second did. */
  readonly aOnly: number;
  readonly bOnly: number;
  /** two-sided: twice the smaller binomial tail of the discordant pairs under p = 1/2, capped at 1. */
  readonly p: number;
}

/** McNemar's exact test on paired successes: only the discordant pairs carry information. */
export function mcnemarExact(aOnly: number, bOnly: number): McNemarResult {
  if (![aOnly, bOnly].every((value) => Number.isInteger(value) && value >= 0)) {
    throw new RangeError(`mcnemar: discordant counts must be non-negative integers, got ${aOnly} and ${bOnly}`);
  }
  const n = aOnly + bOnly;
  const p = n === 0 ? 1 : Math.min(1, 2 * binomialHalfCdf(Math.min(aOnly, bOnly), n));
  return { test: 'mcnemar-exact', aOnly, bOnly, p };
}
