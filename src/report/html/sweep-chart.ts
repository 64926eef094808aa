import type { Sweep, SweepPoint } from '../../summary/index.js';
import { formatDuration } from '../../types/duration.js';
import { axisTitle } from '../sweep-view.js';
import { escapeHtml as esc, shortTime } from './escape.js';
import { CHAR_WIDTH, LINE_HEIGHT } from './label-layout.js';

const LINE_COLORS = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#dc2626'];
const lineColor = (index: number): string => LINE_COLORS[index % LINE_COLORS.length]!;

const PANEL_WIDTH = 420;
const PANEL_GAP = 40;
const PANEL_HEIGHT = 300;
const MARGIN = { left: 60, right: 16, top: 30, bottom: 46 } as const;

interface Frame {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

const frameAt = (offset: number): Frame => ({
  left: offset + MARGIN.left,
  right: offset + PANEL_WIDTH - MARGIN.right,
  top: MARGIN.top,
  bottom: PANEL_HEIGHT - MARGIN.bottom,
});

/** The axis: logarithmic when every value is positive and they span a factor of 4 or more (1s, 2s, 4s), else linear. */
function xScale(values: readonly number[], frame: Frame): (value: number) => number {
  const [low, high] = [Math.min(...values), Math.max(...values)];
  const logarithmic = low > 0 && high / low >= 4;
  const position = (value: number): number => (logarithmic ? Math.log(value) : value);
  const [from, to] = [position(low), position(high)];
  const inner = { left: frame.left + 18, right: frame.right - 18 };
  return (value) =>
    from === to
      ? (inner.left + inner.right) / 2
      : inner.left + ((position(value) - from) / (to - from)) * (inner.right - inner.left);
}

/** 0 … a round number at or above `max`, in at most 5 steps of 1, 2 or 5 × 10^k. */
function niceTicks(max: number): number[] {
  if (max <= 0) return [0, 1];
  const raw = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step =
    [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ?? 10 * magnitude;
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, index) => index * step);
}

function xAxis(
  sweep: Sweep,
  values: readonly number[],
  frame: Frame,
  x: (value: number) => number,
  label: (value: number) => string,
): string {
  const parts: string[] = [];
  let lastRight = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    const text = label(value);
    const half = (text.length * CHAR_WIDTH) / 2;
    parts.push(
      `<line class="grid" x1="${x(value).toFixed(1)}" x2="${x(value).toFixed(1)}" y1="${frame.top}" y2="${frame.bottom}"/>`,
    );
    // a value too close to the one before keeps its grid line but not its label
    if (x(value) - half < lastRight + 6) continue;
    parts.push(`<text class="axis" x="${x(value).toFixed(1)}" y="${frame.bottom + 15}">${esc(text)}</text>`);
    lastRight = x(value) + half;
  }
  parts.push(
    `<text class="axis-title" x="${((frame.left + frame.right) / 2).toFixed(1)}" y="${frame.bottom + 34}">${esc(`${axisTitle(sweep)} →`)}</text>`,
  );
  return parts.join('');
}

function yAxis(
  ticks: readonly number[],
  frame: Frame,
  y: (value: number) => number,
  label: (value: number) => string,
): string {
  return ticks
    .map(
      (tick) =>
        `<line class="grid" x1="${frame.left}" x2="${frame.right}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}"/><text class="tick-y" x="${frame.left - 6}" y="${(y(tick) + 4).toFixed(1)}">${esc(label(tick))}</text>`,
    )
    .join('');
}

const path = (points: ReadonlyArray<readonly [number, number]>): string =>
  points.map(([px, py], index) => `${index === 0 ? 'M' : 'L'}${px.toFixed(1)},${py.toFixed(1)}`).join(' ');

const errorBar = (px: number, low: number, high: number, color: string): string =>
  `<line x1="${px.toFixed(1)}" x2="${px.toFixed(1)}" y1="${low.toFixed(1)}" y2="${high.toFixed(1)}" stroke="${color}"/><line x1="${(px - 3).toFixed(1)}" x2="${(px + 3).toFixed(1)}" y1="${low.toFixed(1)}" y2="${low.toFixed(1)}" stroke="${color}"/><line x1="${(px - 3).toFixed(1)}" x2="${(px + 3).toFixed(1)}" y1="${high.toFixed(1)}" y2="${high.toFixed(1)}" stroke="${color}"/>`;

function pointTitle(sweep: Sweep, point: SweepPoint, axisLabel: (value: number) => string): string {
  const rate = (r: SweepPoint['interrupted']): string =>
    r.rate === null ? '–' : `${r.count}/${r.total} ${Math.round(r.rate * 100)}%`;
  const latency =
    point.latencyP50 === null
      ? 'never interrupted'
      : `${shortTime(point.latencyP50)}${point.latencyLow === null || point.latencyHigh === null ? '' : ` [${shortTime(point.latencyLow)}–${shortTime(point.latencyHigh)}]`}`;
  return `${point.variant} (${sweep.axis} ${axisLabel(point.x)}): latency p50 ${latency}; interrupted ${rate(point.interrupted)}; false kills ${rate(point.false_kill)}${point.pareto ? '; on the Pareto front' : ''}`;
}

/** Latency panel: p50 with its bootstrap interval, a line per mode; a variant that never interrupted is a hollow mark on top. */
function latencyPanel(sweep: Sweep, values: readonly number[], axisLabel: (value: number) => string): string {
  const frame = frameAt(0);
  const x = xScale(values, frame);
  const highest = Math.max(
    1,
    ...sweep.lines.flatMap((line) => line.points.map((point) => point.latencyHigh ?? point.latencyP50 ?? 0)),
  );
  const ticks = niceTicks(highest);
  const top = ticks.at(-1) as number;
  const y = (value: number): number => frame.bottom - (value / top) * (frame.bottom - frame.top);
  const parts = [
    `<text class="panel-title" x="${frame.left}" y="16">interrupt latency p50 [95 % CI], hangs</text>`,
    yAxis(ticks, frame, y, formatDuration),
    xAxis(sweep, values, frame, x, axisLabel),
  ];
  sweep.lines.forEach((line, index) => {
    const color = lineColor(index);
    const dodge = (index - (sweep.lines.length - 1) / 2) * 5;
    const measured = line.points.filter((point) => point.latencyP50 !== null);
    parts.push(
      `<path class="line" data-line="${esc(line.label)}" d="${path(measured.map((point) => [x(point.x) + dodge, y(point.latencyP50 as number)]))}" stroke="${color}" fill="none" stroke-width="2"/>`,
    );
    for (const point of line.points) {
      const px = x(point.x) + dodge;
      const title = `<title>${esc(pointTitle(sweep, point, axisLabel))}</title>`;
      if (point.latencyP50 === null) {
        parts.push(
          `<g class="point none" data-line="${esc(line.label)}" data-x="${point.x}"><circle cx="${px.toFixed(1)}" cy="${frame.top + 4}" r="4" fill="#fff" stroke="${color}"/>${title}</g>`,
        );
        continue;
      }
      const bar =
        point.latencyLow === null || point.latencyHigh === null
          ? ''
          : errorBar(px, y(point.latencyLow), y(point.latencyHigh), color);
      const ring = point.pareto
        ? `<circle class="pareto" cx="${px.toFixed(1)}" cy="${y(point.latencyP50).toFixed(1)}" r="8" fill="none" stroke="#1f2328" stroke-width="1.5"/>`
        : '';
      parts.push(
        `<g class="point${point.pareto ? ' on-front' : ''}" data-line="${esc(line.label)}" data-x="${point.x}">${bar}<circle cx="${px.toFixed(1)}" cy="${y(point.latencyP50).toFixed(1)}" r="4" fill="${color}"/>${ring}${title}</g>`,
      );
    }
  });
  return `<g class="panel latency">${parts.join('')}</g>`;
}

/** Rates panel: hangs interrupted (solid, dots) and controls falsely killed (dashed, squares), each with its Wilson interval. */
function ratesPanel(sweep: Sweep, values: readonly number[], axisLabel: (value: number) => string): string {
  const frame = frameAt(PANEL_WIDTH + PANEL_GAP);
  const x = xScale(values, frame);
  const y = (value: number): number => frame.bottom - value * (frame.bottom - frame.top);
  const parts = [
    `<text class="panel-title" x="${frame.left}" y="16">hangs interrupted · controls falsely killed [95 % CI]</text>`,
    yAxis([0, 0.25, 0.5, 0.75, 1], frame, y, (value) => `${value * 100}%`),
    xAxis(sweep, values, frame, x, axisLabel),
  ];
  sweep.lines.forEach((line, index) => {
    const color = lineColor(index);
    const dodge = (index - (sweep.lines.length - 1) / 2) * 5;
    for (const series of ['interrupted', 'false_kill'] as const) {
      const measured = line.points.filter((point) => point[series].rate !== null);
      const dash = series === 'false_kill' ? ' stroke-dasharray="5 4"' : '';
      parts.push(
        `<path class="line ${series === 'interrupted' ? 'interrupted' : 'false-kill'}" data-line="${esc(line.label)}" d="${path(measured.map((point) => [x(point.x) + dodge, y(point[series].rate as number)]))}" stroke="${color}" fill="none" stroke-width="2"${dash}/>`,
      );
      for (const point of measured) {
        const rate = point[series];
        const [px, py] = [x(point.x) + dodge, y(rate.rate as number)];
        const bar = rate.low === null || rate.high === null ? '' : errorBar(px, y(rate.low), y(rate.high), color);
        const mark =
          series === 'interrupted'
            ? `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="4" fill="${color}"/>`
            : `<rect x="${(px - 3.5).toFixed(1)}" y="${(py - 3.5).toFixed(1)}" width="7" height="7" fill="#fff" stroke="${color}" stroke-width="1.5"/>`;
        parts.push(
          `<g class="point ${series === 'interrupted' ? 'interrupted' : 'false-kill'}" data-line="${esc(line.label)}" data-x="${point.x}">${bar}${mark}<title>${esc(pointTitle(sweep, point, axisLabel))}</title></g>`,
        );
      }
    }
  });
  return `<g class="panel rates">${parts.join('')}</g>`;
}

/** The legend under both panels, entries flowing left to right and wrapping, so no two overlap. */
function legend(sweep: Sweep, width: number, top: number): { svg: string; height: number } {
  const entries: Array<{ mark: (x: number, y: number) => string; text: string }> = [
    ...sweep.lines.map((line, index) => ({
      mark: (mx: number, my: number) =>
        `<line x1="${mx}" x2="${mx + 18}" y1="${my}" y2="${my}" stroke="${lineColor(index)}" stroke-width="3"/>`,
      text: line.label,
    })),
    {
      mark: (mx, my) =>
        `<line x1="${mx}" x2="${mx + 18}" y1="${my}" y2="${my}" stroke="#656d76" stroke-width="2"/><circle cx="${mx + 9}" cy="${my}" r="3.5" fill="#656d76"/>`,
      text: 'interrupted',
    },
    {
      mark: (mx, my) =>
        `<line x1="${mx}" x2="${mx + 18}" y1="${my}" y2="${my}" stroke="#656d76" stroke-width="2" stroke-dasharray="5 4"/><rect x="${mx + 6}" y="${my - 3}" width="6" height="6" fill="#fff" stroke="#656d76"/>`,
      text: 'false kills',
    },
    {
      mark: (mx, my) => `<circle cx="${mx + 9}" cy="${my}" r="7" fill="none" stroke="#1f2328" stroke-width="1.5"/>`,
      text: 'on the Pareto front (latency p50 / false kills)',
    },
    ...(sweep.lines.some((line) => line.points.some((point) => point.latencyP50 === null))
      ? [
          {
            mark: (mx: number, my: number) => `<circle cx="${mx + 9}" cy="${my}" r="4" fill="#fff" stroke="#656d76"/>`,
            text: 'never interrupted',
          },
        ]
      : []),
  ];
  const parts: string[] = [];
  let [cursor, row] = [MARGIN.left, 0];
  for (const entry of entries) {
    const span = 24 + entry.text.length * CHAR_WIDTH + 18;
    if (cursor + span > width && cursor > MARGIN.left) [cursor, row] = [MARGIN.left, row + 1];
    const baseline = top + row * (LINE_HEIGHT + 6) + 10;
    parts.push(
      `<g class="legend-entry">${entry.mark(cursor, baseline - 4)}<text class="legend" x="${cursor + 24}" y="${baseline}">${esc(entry.text)}</text></g>`,
    );
    cursor += span;
  }
  return { svg: parts.join(''), height: (row + 1) * (LINE_HEIGHT + 6) + 6 };
}

/**
 * What a sweep is run to see, as inline SVG: along the axis, a line per mode; left, interrupt latency p50 with its
 * bootstrap interval, Pareto-front variants ringed; right, the interrupted and false-kill rates with their intervals.
 */
export function renderSweepChart(sweep: Sweep): string {
  const values = [...new Set(sweep.lines.flatMap((line) => line.points.map((point) => point.x)))].sort((a, b) => a - b);
  const axisLabel = (value: number): string => (sweep.unit === 'ms' ? formatDuration(value) : `${value}`);
  const width = 2 * PANEL_WIDTH + PANEL_GAP;
  const key = legend(sweep, width, PANEL_HEIGHT + 4);
  const height = PANEL_HEIGHT + 4 + key.height;
  return `<svg class="sweep-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="sweep over the ${esc(axisTitle(sweep))}">${latencyPanel(sweep, values, axisLabel)}${ratesPanel(sweep, values, axisLabel)}${key.svg}</svg>`;
}
