import { formatDuration } from '../types/duration.js';
import type { Rate } from '../summary/index.js';

/** Cell formatting shared by the renderers. Pure: colour is an argument, never read from the environment. */

const ANSI = { green: 32, red: 31, yellow: 33, dim: 2, bold: 1 } as const;
export type Paint = keyof typeof ANSI;

export function paint(text: string, style: Paint, color: boolean): string {
  return color ? `\u001b[${ANSI[style]}m${text}\u001b[0m` : text;
}

export const DASH = '–';

/** ✓ / ✗ / – (not applicable). */
export function mark(value: boolean | null, color: boolean): string {
  if (value === null) return paint(DASH, 'dim', color);
  return value ? paint('✓', 'green', color) : paint('✗', 'red', color);
}

export function duration(ms: number | null): string {
  return ms === null ? DASH : formatDuration(ms);
}

/** `7/8`, or – when nothing was counted. */
export function fraction(rate: Rate): string {
  return rate.total === 0 ? DASH : `${rate.count}/${rate.total}`;
}

const pct = (value: number): string => `${Math.round(value * 100)}`;

/** `80% [49–94]`: the rate and its 95 % Wilson interval. */
export function percentWithInterval(rate: Rate): string {
  if (rate.rate === null || rate.low === null || rate.high === null) return DASH;
  return `${pct(rate.rate)}% [${pct(rate.low)}–${pct(rate.high)}]`;
}

/** 950, 12.3k, 1.2M */
export function count(value: number | null): string {
  if (value === null) return DASH;
  if (Math.abs(value) < 1000) return Number.isInteger(value) ? String(value) : value.toFixed(1);
  if (Math.abs(value) < 1_000_000) return `${(value / 1000).toFixed(1)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

export function shouldUseColor(
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true;
}
