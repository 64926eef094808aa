/**
 * An always-valid sign test: the Bayes factor of Binomial(d, θ) with θ ~ Beta(1, 1) against θ = ½ after `forA` of `d`
 * signs favoured the first side (the discordant pairs of McNemar's test, or the non-zero paired differences of a
 * measured metric): E = 2ᵈ · x! (d − x)! / (d + 1)!. Under the null E is a non-negative martingale starting at 1
 * (Robbins 1970, Ann. Math. Statist. 41:1397, the mixture method; Ramdas, Grünwald, Vovk & Shafer 2023, Stat. Sci.
 * 38:576), so by Ville's inequality P(E ever ≥ 1/α) ≤ α: the test may be looked at after every round and stopped at
 * any of them without raising the false-positive rate.
 */
export function signMixtureEValue(forA: number, d: number): number {
  if (!Number.isInteger(forA) || !Number.isInteger(d) || forA < 0 || forA > d)
    throw new RangeError(`sign e-value: need integers 0 ≤ forA ≤ d, got ${forA} of ${d}`);
  let log = d * Math.LN2 - Math.log(d + 1);
  for (let i = 1; i <= forA; i += 1) log += Math.log(i);
  for (let i = 1; i <= d - forA; i += 1) log += Math.log(i);
  for (let i = 1; i <= d; i += 1) log -= Math.log(i);
  return Math.exp(log);
}

/**
 * The boundary of the always-valid sign test at level `alpha` after `d` signs: the largest count of the rarer side at
 * which E ≥ 1/α (reject), or −1 when no split of d signs rejects yet.
 */
export function signMixtureBoundary(d: number, alpha: number): number {
  let k = -1;
  while (k + 1 <= d / 2 && signMixtureEValue(k + 1, d) >= 1 / alpha) k += 1;
  return k;
}
