import { formatDuration } from '../types/duration.js';
import type { Sweep, SweepPoint } from '../summary/index.js';
import { DASH, fraction, percentWithInterval } from './format.js';

/** How the sweep's axis and points read in a table: `interval 2s`, `k 4`; shared by report.md and report.html. */

export const axisTitle = (sweep: Sweep): string =>
  sweep.axis === 'interval' ? 'interval (the mode’s period)' : 'hung ticks before a kill';

export const axisValue = (sweep: Sweep, x: number): string => (sweep.unit === 'ms' ? formatDuration(x) : String(x));

export function latencyCell(point: SweepPoint): string {
  if (point.latencyP50 === null) return DASH;
  const interval =
    point.latencyLow === null || point.latencyHigh === null
      ? ''
      : ` [${formatDuration(point.latencyLow)}–${formatDuration(point.latencyHigh)}]`;
  return `${formatDuration(point.latencyP50)}${interval}`;
}

export const rateCellText = (rate: SweepPoint['interrupted']): string =>
  rate.total === 0 ? DASH : `${fraction(rate)} ${percentWithInterval(rate)}`;

/** Every point of the sweep, line by line, in axis order. */
export function sweepRows(sweep: Sweep): Array<{ readonly line: string; readonly point: SweepPoint }> {
  return sweep.lines.flatMap((line) => line.points.map((point) => ({ line: line.label, point })));
}
