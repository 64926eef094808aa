/**
 * The unbiased pass@k estimator of Chen et al. 2021 ("Evaluating Large Language Models Trained on Code", §2.1):
 * the chance that at least one of k attempts drawn without replacement from n, of which c solved, solved.
 * 1 − C(n−c, k) / C(n, k), computed as a product so large n does not overflow.
 */
export function passAtK(n: number, c: number, k: number): number {
  check(n, c, k);
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i += 1) allFail *= 1 - k / i;
  return 1 - allFail;
}

/**
 * pass^k (Yao et al. 2024, τ-bench): the chance that all k attempts drawn without replacement from n solved,
 * C(c, k) / C(n, k). With n = k it is 1 when every attempt solved, else 0.
 */
export function passHatK(n: number, c: number, k: number): number {
  check(n, c, k);
  let all = 1;
  for (let i = 0; i < k; i += 1) all *= (c - i) / (n - i);
  return Math.max(0, all);
}

function check(n: number, c: number, k: number): void {
  if (![n, c, k].every(Number.isInteger) || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`pass@k: need integers 0 <= c <= n and 1 <= k <= n, got n=${n} c=${c} k=${k}`);
  }
}

export interface PassAtK {
  readonly k: number;
  /** cases with at least k attempts: the ones the estimate averages over. */
  readonly cases: number;
  readonly passAtK: number;
  readonly passHatK: number;
}

/** pass@k and pass^k averaged over cases, for k = 1 … the fewest attempts any case had. */
export function passAtKCurve(
  perCase: ReadonlyArray<{ readonly attempts: number; readonly solved: number }>,
): PassAtK[] {
  const counted = perCase.filter((entry) => entry.attempts > 0);
  if (counted.length === 0) return [];
  const kMax = Math.min(...counted.map((entry) => entry.attempts));
  return Array.from({ length: kMax }, (_, index) => {
    const k = index + 1;
    const average = (estimate: (n: number, c: number, k: number) => number): number =>
      counted.reduce((sum, entry) => sum + estimate(entry.attempts, entry.solved, k), 0) / counted.length;
    return { k, cases: counted.length, passAtK: average(passAtK), passHatK: average(passHatK) };
  });
}
