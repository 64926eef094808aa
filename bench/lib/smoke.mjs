// BENCH_SMOKE=1: every section with a few trials, to show the bench still runs (CI runs it after the tests).
// Its figures are too few to quote; the run writes its results to a temporary folder, not bench/results/.

export const SMOKE = process.env.BENCH_SMOKE === '1';

/**
 * `full` in a real run, `smoke` under BENCH_SMOKE=1.
 * @template T
 * @param {T} full
 * @param {T} smoke
 * @returns {T}
 */
export const sized = (full, smoke) => (SMOKE ? smoke : full);
