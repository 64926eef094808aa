import type { GroupSummary, Rate } from '../../summary/index.js';
import { escapeHtml as esc, shortTime } from './escape.js';
import { ASCENT, CHAR_WIDTH, LabelLayout, LINE_HEIGHT, candidatesAround, textAt, textBox } from './label-layout.js';

const RATES = [
  ['solved', 'solved'],
  ['interrupted', 'hangs interrupted'],
  ['false_kill', 'controls falsely killed'],
  ['fixed', 'hangs fixed'],
  ['completed', 'controls completed'],
  ['intact', 'controls left intact'],
] as const;

const PALETTE = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#dc2626'];
export const variantColor = (index: number): string => PALETTE[index % PALETTE.length]!;

/** Per rate, a dot per variant at its rate and a bar over its 95 % Wilson interval; rates with no attempts are left out. */
export function renderRatesChart(groups: readonly GroupSummary[]): string {
  const rates = RATES.filter(([name]) => groups.some((group) => group[name].total > 0));
  const rowHeight = 14 + groups.length * 14;
  const left = 170;
  const width = 640;
  const height = 28 + rates.length * rowHeight;
  const x = (value: number): number => Math.round(left + value * (width - left - 20));
  const parts: string[] = [];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(
      `<line class="grid" x1="${x(tick)}" x2="${x(tick)}" y1="16" y2="${height}"/><text class="axis" x="${x(tick)}" y="12">${tick * 100}%</text>`,
    );
  }
  rates.forEach(([name, label], rateIndex) => {
    const top = 24 + rateIndex * rowHeight;
    parts.push(`<text class="row-label" x="4" y="${top + 12}">${esc(label)}</text>`);
    groups.forEach((group, index) => {
      const rate: Rate = group[name];
      if (rate.rate === null || rate.low === null || rate.high === null) return;
      const y = top + 8 + index * 14;
      const color = variantColor(index);
      parts.push(
        `<g class="rate"><line x1="${x(rate.low)}" x2="${x(rate.high)}" y1="${y}" y2="${y}" stroke="${color}" stroke-width="3"/><circle cx="${x(rate.rate)}" cy="${y}" r="4.5" fill="${color}"/><title>${esc(`${group.variant}: ${label} ${rate.count}/${rate.total} = ${Math.round(rate.rate * 100)}% [${Math.round(rate.low * 100)}–${Math.round(rate.high * 100)}]`)}</title></g>`,
      );
    });
  });
  return `<svg class="rates-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="rates per variant">${parts.join('')}</svg>`;
}

/** One spot on the chart and every variant on it (the label lists them). */
interface TradeoffPoint {
  readonly names: string[];
  readonly cx: number;
  readonly cy: number;
  radius: number;
}

/** Points whose centres are within this many pixels share one label: their markers would hide each other's. */
const COINCIDE_PX = 3;

/** The trade-off chart's grid, percentages and axis titles, their boxes reserved in `layout` so no label covers them. */
function tradeoffAxes(
  layout: LabelLayout,
  { x, y, size, pad }: { x: (value: number) => number; y: (value: number) => number; size: number; pad: number },
): string[] {
  const parts: string[] = [];
  for (const tick of [0, 0.5, 1]) {
    const label = `${tick * 100}%`;
    parts.push(
      `<line class="grid" x1="${x(tick)}" x2="${x(tick)}" y1="16" y2="${size - pad}"/><text class="axis" x="${x(tick)}" y="${size - pad + 20}">${label}</text>`,
      `<line class="grid" x1="${pad}" x2="${size - 16}" y1="${y(tick)}" y2="${y(tick)}"/><text class="tick-y" x="${pad - 5}" y="${y(tick) + 4}">${label}</text>`,
    );
    layout.reserve(textBox([label], x(tick), size - pad + 20, 'middle'));
    layout.reserve(textBox([label], pad - 5, y(tick) + 4, 'end'));
  }
  const xTitle = 'controls falsely killed →';
  const yTitle = 'hangs interrupted →';
  parts.push(
    `<text class="axis-title" x="${(size + pad) / 2}" y="${size - 8}">${xTitle}</text>`,
    `<text class="axis-title" transform="translate(12 ${(size - pad) / 2}) rotate(-90)">${yTitle}</text>`,
  );
  layout.reserve(textBox([xTitle], (size + pad) / 2, size - 8, 'middle'));
  layout.reserve({
    x: 0,
    y: (size - pad) / 2 - (yTitle.length * CHAR_WIDTH) / 2,
    width: 16,
    height: yTitle.length * CHAR_WIDTH,
  });
  return parts;
}

/**
 * The trade-off: per variant, hangs interrupted (y) against controls falsely killed (x), both with their intervals;
 * the dot's size is the interrupt latency p50 (the third dimension), so a design that buys recall with kills shows.
 * Variants on the same spot get one label listing them; labels are placed so that none covers another.
 */
export function renderTradeoffChart(groups: readonly GroupSummary[]): string {
  const size = 360;
  // room on the left for the rotated axis title and the right-aligned percentages beside it
  const pad = 52;
  const width = size + 150;
  const x = (value: number): number => Math.round(pad + value * (size - pad - 16));
  const y = (value: number): number => Math.round(size - pad - value * (size - pad - 16));
  const latencies = groups.flatMap((group) => group.interruptLatencyMs.p50 ?? []);
  const maxLatency = Math.max(1, ...latencies);
  const layout = new LabelLayout({ x: 0, y: 0, width, height: size });
  const parts: string[] = tradeoffAxes(layout, { x, y, size, pad });
  const points: TradeoffPoint[] = [];
  groups.forEach((group, index) => {
    const hit = group.interrupted;
    const kill = group.false_kill;
    if (hit.rate === null && kill.rate === null) return;
    const cx = x(kill.rate ?? 0);
    const cy = y(hit.rate ?? 0);
    const p50 = group.interruptLatencyMs.p50;
    const radius = p50 === null ? 5 : 5 + 11 * Math.sqrt(p50 / maxLatency);
    const color = variantColor(index);
    const bars = [
      hit.low !== null && hit.high !== null
        ? `<line x1="${cx}" x2="${cx}" y1="${y(hit.low)}" y2="${y(hit.high)}" stroke="${color}"/>`
        : '',
      kill.low !== null && kill.high !== null
        ? `<line x1="${x(kill.low)}" x2="${x(kill.high)}" y1="${cy}" y2="${cy}" stroke="${color}"/>`
        : '',
    ].join('');
    const title = `${group.variant}: interrupted ${hit.count}/${hit.total}, false kills ${kill.count}/${kill.total}, latency p50 ${p50 === null ? '–' : shortTime(p50)}`;
    parts.push(
      `<g class="variant-point" data-variant="${esc(group.variant)}">${bars}<circle cx="${cx}" cy="${cy}" r="${radius.toFixed(1)}" fill="${color}" fill-opacity="0.55" stroke="${color}"/><title>${esc(title)}</title></g>`,
    );
    const near = points.find((point) => Math.hypot(point.cx - cx, point.cy - cy) <= COINCIDE_PX);
    if (near) {
      near.names.push(group.variant);
      near.radius = Math.max(near.radius, radius);
    } else points.push({ names: [group.variant], cx, cy, radius });
  });
  const unplaced: TradeoffPoint[] = [];
  for (const point of points) {
    const probe = textBox(point.names, 0, ASCENT);
    const box = layout.place(candidatesAround(point.cx, point.cy, point.radius, probe.width, probe.height));
    if (box) parts.push(textAt(box, point.names, esc, `point-label${point.names.length > 1 ? ' grouped' : ''}`));
    else unplaced.push(point);
  }
  // nowhere free beside its point: listed under the chart, with where it is
  const listTop = size + 6;
  unplaced.forEach((point, index) => {
    const line = `${point.names.join(', ')} — at ${Math.round(((point.cx - pad) / (size - pad - 16)) * 100)}% / ${Math.round(((size - pad - point.cy) / (size - pad - 16)) * 100)}%`;
    parts.push(
      textAt(
        { x: 4, y: listTop + index * LINE_HEIGHT, width: line.length * CHAR_WIDTH, height: LINE_HEIGHT },
        [line],
        esc,
        `point-label listed${point.names.length > 1 ? ' grouped' : ''}`,
      ),
    );
  });
  const height = size + (unplaced.length > 0 ? 10 + unplaced.length * LINE_HEIGHT : 0);
  return `<svg class="tradeoff-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="interrupted against false kills">${parts.join('')}</svg>`;
}
