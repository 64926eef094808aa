/** P(X <= k) for X ~ Binomial(n, 1/2), summed in log space so thousands of trials do not underflow. */
export function binomialHalfCdf(k: number, n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`binomial: n must be a non-negative integer, got ${n}`);
  if (k < 0) return 0;
  if (k >= n) return 1;
  const logHalfN = n * Math.log(0.5);
  let logChoose = 0;
  let total = Math.exp(logHalfN);
  for (let i = 1; i <= k; i += 1) {
    logChoose += Math.log((n - i + 1) / i);
    total += Math.exp(logChoose + logHalfN);
  }
  return Math.min(1, total);
}
