import { binomialHalfCdf } from './binomial.js';
import { normalUpperTail } from './normal.js';

/** The z with P(Z > z) = p for a standard normal Z, by bisection on normalUpperTail (ample for sample sizes). */
export function normalQuantileUpper(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normal quantile: p must be within (0, 1), got ${p}`);
  let [low, high] = [-40, 40];
  for (let step = 0; step < 200 && high - low > 1e-12; step += 1) {
    const middle = (low + high) / 2;
    if (normalUpperTail(middle) > p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/**
 * For each number d = 0 … n of discordant pairs, the largest count k of the rarer direction at which McNemar's exact
 * two-sided test still rejects at level `alpha` (2 · P(Bin(d, ½) ≤ k) < alpha), or −1 when no split of d rejects.
 */
function rejectionThresholds(n: number, alpha: number): number[] {
  const thresholds: number[] = [];
  for (let d = 0; d <= n; d += 1) {
    let k = -1;
    while (k + 1 <= d / 2 && 2 * binomialHalfCdf(k + 1, d) < alpha) k += 1;
    thresholds.push(k);
  }
  return thresholds;
}

/** The Binomial(n, p) probabilities of 0 … n, each built in log space so large n does not underflow. */
function binomialPmf(n: number, p: number): number[] {
  if (p <= 0) return Array.from({ length: n + 1 }, (_, k) => (k === 0 ? 1 : 0));
  if (p >= 1) return Array.from({ length: n + 1 }, (_, k) => (k === n ? 1 : 0));
  const pmf = new Array<number>(n + 1);
  let logChoose = 0;
  for (let k = 0; k <= n; k += 1) {
    if (k > 0) logChoose += Math.log((n - k + 1) / k);
    pmf[k] = Math.exp(logChoose + k * Math.log(p) + (n - k) * Math.log(1 - p));
  }
  return pmf;
}

/**
 * Power of McNemar's exact (conditional) two-sided test at level `alpha` over `n` pairs, when a pair is discordant with
 * probability `discordance` (p10 + p01) and the rates differ by `difference` (p10 − p01): the number of discordant pairs
 * is Binomial(n, discordance), and given d of them the split is Binomial(d, (discordance + difference) / (2 discordance)).
 * The unconditional exact power of Miettinen (1968) and Lachin (1992, Stat Med 11:1239), as R's desmon::mcnemar.pow.
 */
export function mcnemarPower(n: number, discordance: number, difference: number, alpha: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`mcnemar power: n must be a non-negative integer, got ${n}`);
  const delta = Math.abs(difference);
  if (delta > discordance + 1e-12 || discordance > 1)
    throw new RangeError(`mcnemar power: |difference| ${delta} cannot exceed the discordance ${discordance} (≤ 1)`);
  if (n === 0 || discordance === 0) return 0;
  const thresholds = rejectionThresholds(n, alpha);
  const discordant = binomialPmf(n, discordance);
  const favoured = Math.min(1, (discordance + delta) / (2 * discordance));
  let power = 0;
  for (let d = 1; d <= n; d += 1) {
    const k = thresholds[d] as number;
    if (k < 0 || (discordant[d] as number) === 0) continue;
    const split = binomialPmf(d, favoured);
    let reject = 0;
    for (let x = 0; x <= k; x += 1) reject += (split[x] as number) + (d - x === x ? 0 : (split[d - x] as number));
    power += (discordant[d] as number) * Math.min(1, reject);
  }
  return Math.min(1, power);
}

/**
 * Connor's (1987, Biometrics 43:207, eq. 3) pairs for McNemar's test to detect `difference` = p10 − p01 at two-sided
 * level `alpha` with `power`, when a pair is discordant with probability `discordance`:
 * n = [z(α/2) √ψ + z(β) √(ψ − δ²)]² / δ². Not rounded.
 */
export function connorPairs(discordance: number, difference: number, alpha: number, power: number): number {
  const delta = Math.abs(difference);
  if (!(delta > 0) || delta > discordance)
    throw new RangeError(`connor: need 0 < |difference| ≤ discordance, got ${difference} and ${discordance}`);
  const za = normalQuantileUpper(alpha / 2);
  const zb = normalQuantileUpper(1 - power);
  return (za * Math.sqrt(discordance) + zb * Math.sqrt(discordance - delta * delta)) ** 2 / (delta * delta);
}

/**
 * The smallest difference of two paired rates that McNemar's exact test over `n` pairs detects with `power` at level
 * `alpha`, when the pairs are discordant at least as often as observed (`discordance`) — and at least as often as the
 * difference itself, which needs that many discordant pairs all one way. null when no difference, not even 100 points,
 * reaches the power (too few pairs). Resolved to 0.1 point.
 */
export function mcnemarMde(n: number, discordance: number, alpha: number, power: number): number | null {
  const powerAt = (delta: number): number => mcnemarPower(n, Math.max(discordance, delta), delta, alpha);
  if (n === 0 || powerAt(1) < power) return null;
  let [low, high] = [0, 1];
  while (high - low > 0.001) {
    const middle = (low + high) / 2;
    if (powerAt(middle) >= power) high = middle;
    else low = middle;
  }
  return high;
}

/** Lehmann's asymptotic relative efficiency of the signed-rank test to the paired t test under normal errors. */
const SIGNED_RANK_EFFICIENCY = 3 / Math.PI;

/**
 * The smallest shift of the paired differences the Wilcoxon signed-rank test over `n` pairs detects with `power` at
 * two-sided level `alpha`, when the differences spread with standard deviation `sd`: the paired t test's
 * (z(α/2) + z(β)) σ / √n, scaled by 1/√(3/π) for the signed-rank test's efficiency (Lehmann 1975, Nonparametrics, §5.3;
 * Noether 1987, JASA 82:645). null when even the most extreme ranking cannot reach `alpha` (2/2ⁿ ≥ α) or without spread.
 */
export function wilcoxonMde(n: number, sd: number, alpha: number, power: number): number | null {
  if (n < 1 || !(sd > 0) || 2 / 2 ** n >= alpha) return null;
  return (
    ((normalQuantileUpper(alpha / 2) + normalQuantileUpper(1 - power)) * sd) / Math.sqrt(n * SIGNED_RANK_EFFICIENCY)
  );
}

/** Pairs the signed-rank test needs to detect `shift` with `power` at two-sided `alpha`: the inverse of wilcoxonMde. */
export function wilcoxonPairs(shift: number, sd: number, alpha: number, power: number): number {
  if (!(Math.abs(shift) > 0)) throw new RangeError(`wilcoxon pairs: shift must be non-zero, got ${shift}`);
  const z = normalQuantileUpper(alpha / 2) + normalQuantileUpper(1 - power);
  return (z * sd) ** 2 / (shift * shift * SIGNED_RANK_EFFICIENCY);
}

/** The sample standard deviation (n − 1); 0 below two values. */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
}
