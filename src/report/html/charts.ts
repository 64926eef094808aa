import type { GroupSummary, Rate } from '../../summary/schema.js';
import { escapeHtml as esc, shortTime } from './escape.js';

const RATES = [
  ['solved', 'solved'],
  ['interrupted', 'hangs interrupted'],
  ['false_kill', 'controls falsely killed'],
  ['fixed', 'fixed'],
  ['completed', 'controls completed'],
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
    parts.push(`<line class="grid" x1="${x(tick)}" x2="${x(tick)}" y1="16" y2="${height}"/><text class="axis" x="${x(tick)}" y="12">${tick * 100}%</text>`);
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

/**
 * The trade-off: per variant, hangs interrupted (y) against controls falsely killed (x), both with their intervals;
 * the dot's size is the interrupt latency p50 (the third dimension), so a design that buys recall with kills shows.
 */
export function renderTradeoffChart(groups: readonly GroupSummary[]): string {
  const size = 360;
  const pad = 44;
  const x = (value: number): number => Math.round(pad + value * (size - pad - 16));
  const y = (value: number): number => Math.round(size - pad - value * (size - pad - 16));
  const latencies = groups.flatMap((group) => group.interruptLatencyMs.p50 ?? []);
  const maxLatency = Math.max(1, ...latencies);
  const parts: string[] = [];
  for (const tick of [0, 0.5, 1]) {
    parts.push(
      `<line class="grid" x1="${x(tick)}" x2="${x(tick)}" y1="16" y2="${size - pad}"/><text class="axis" x="${x(tick)}" y="${size - pad + 14}">${tick * 100}%</text>`,
      `<line class="grid" x1="${pad}" x2="${size - 16}" y1="${y(tick)}" y2="${y(tick)}"/><text class="axis" x="${pad - 18}" y="${y(tick) + 4}">${tick * 100}%</text>`,
    );
  }
  parts.push(
    `<text class="axis-title" x="${(size + pad) / 2}" y="${size - 8}">controls falsely killed →</text>`,
    `<text class="axis-title" transform="translate(12 ${(size - pad) / 2}) rotate(-90)">hangs interrupted →</text>`,
  );
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
      hit.low !== null && hit.high !== null ? `<line x1="${cx}" x2="${cx}" y1="${y(hit.low)}" y2="${y(hit.high)}" stroke="${color}"/>` : '',
      kill.low !== null && kill.high !== null ? `<line x1="${x(kill.low)}" x2="${x(kill.high)}" y1="${cy}" y2="${cy}" stroke="${color}"/>` : '',
    ].join('');
    const title = `${group.variant}: interrupted ${hit.count}/${hit.total}, false kills ${kill.count}/${kill.total}, latency p50 ${p50 === null ? '–' : shortTime(p50)}`;
    parts.push(
      `<g class="variant-point">${bars}<circle cx="${cx}" cy="${cy}" r="${radius.toFixed(1)}" fill="${color}" fill-opacity="0.55" stroke="${color}"/><text x="${cx + radius + 3}" y="${cy - 3}">${esc(group.variant)}</text><title>${esc(title)}</title></g>`,
    );
  });
  return `<svg class="tradeoff-chart" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" role="img" aria-label="interrupted against false kills">${parts.join('')}</svg>`;
}
