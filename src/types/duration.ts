import { z } from 'zod';

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Parses `250ms`, `30s`, `5m`, `1h` or a bare number of seconds into milliseconds. */
export function parseDuration(input: string | number): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0)
      throw new RangeError(`duration must be a non-negative number of seconds, got ${input}`);
    return Math.round(input * 1000);
  }
  const match = DURATION.exec(input.trim());
  if (!match) throw new RangeError(`"${input}" is not a duration: write 250ms, 30s, 5m, 1h or a number of seconds`);
  const unit = (match[2] ?? 's') as keyof typeof UNIT_MS;
  return Math.round(Number(match[1]) * UNIT_MS[unit]);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1).replace(/\.?0+$/, '')}s`;
  // Whole seconds first, so 119.6 s is 2m and not 1m60s.
  const total = Math.round(ms / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return seconds === 0 ? `${minutes}m` : `${minutes}m${seconds}s`;
}

/** zod type for a duration field: accepts the text forms and numbers, yields milliseconds. */
export const DurationSchema = z.union([z.string(), z.number()]).transform((value, ctx) => {
  try {
    return parseDuration(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
