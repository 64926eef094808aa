import { z } from 'zod';
import { DEFAULTS } from '../defaults.js';
import { formatDuration } from '../types/duration.js';
import type { ModeDefinition, ModeSchedule } from './types.js';

const schema = z.strictObject({
  mode: z.literal('backoff'),
  firstMs: z.number().positive(),
  factor: z.number().min(1),
  maxMs: z.number().positive(),
});
type BackoffMode = z.infer<typeof schema>;

/** Hermes-style heartbeats that thin out: --interval, then ×factor each time, each gap capped at max. */
export const backoff = {
  schema,
  help: `ticks at --interval, then ×${DEFAULTS.backoffFactor} each time, gaps capped at ${DEFAULTS.backoffMaxMs / 1000}s`,
  takes: ['interval', 'factor', 'max'],
  make: ({ periodMs, factor, maxMs }) => ({
    mode: 'backoff',
    firstMs: periodMs,
    factor: factor ?? DEFAULTS.backoffFactor,
    maxMs: maxMs ?? Math.max(periodMs, DEFAULTS.backoffMaxMs),
  }),
  label: (mode) => `backoff-${formatDuration(mode.firstMs)}-x${mode.factor}-max-${formatDuration(mode.maxMs)}`,
  scale: (mode, by) => ({ mode: 'backoff', firstMs: mode.firstMs * by, factor: mode.factor, maxMs: mode.maxMs * by }),
  periodMs: (mode) => mode.firstMs,
  withPeriod: (mode, ms) => ({ ...mode, firstMs: ms }),
  schedule: (mode) => backoffSchedule(mode.firstMs, mode.factor, mode.maxMs),
} satisfies ModeDefinition<BackoffMode>;

/**
 * Exponential polling: ticks at first, first·factor, first·factor² … — with factor 2 at N, 2N, 4N — each gap
 * capped at `maxMs`, after which a tick comes every maxMs. Missed deadlines are skipped as in interval.
 */
function backoffSchedule(firstMs: number, factor: number, maxMs: number): ModeSchedule {
  if (!(firstMs > 0) || !(factor >= 1) || !(maxMs > 0))
    throw new RangeError(`backoff needs first > 0, factor ≥ 1, max > 0; got ${firstMs}, ${factor}, ${maxMs}`);
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
