import type { ModeSchedule } from './types.js';

/**
 * Exponential polling (Hermes heartbeats): ticks at first, first·factor, first·factor² … — with factor 2 at N, 2N, 4N —
 * each gap capped at `maxMs`, after which a tick comes every maxMs. Missed deadlines are skipped as in interval.
 */
export function backoffSchedule(firstMs: number, factor: number, maxMs: number): ModeSchedule {
  if (!(firstMs > 0) || !(factor >= 1) || !(maxMs > 0)) throw new RangeError(`backoff needs first > 0, factor ≥ 1, max > 0; got ${firstMs}, ${factor}, ${maxMs}`);
  let served = 0;
  const deadlineAfter = (ms: number): number => {
    let at = firstMs;
    // With factor 1 every gap is `first`; otherwise deadline k is first·factor^k, so the gap to the next is at·(factor − 1).
    while (at <= ms) at += Math.min(factor === 1 ? firstMs : at * (factor - 1), maxMs);
    return at;
  };
  return {
    action: 'tick',
    next(afterMs) {
      return deadlineAfter(Math.max(afterMs, served));
    },
    served(atMs) {
      served = Math.max(served, atMs);
    },
  };
}
