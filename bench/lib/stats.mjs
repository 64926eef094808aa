// Percentiles, formatting and Markdown tables shared by the bench sections.

/** Nearest-rank quantile; null for no values. */
export function quantile(values, q) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const mean = (values) =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;

export function ms(value) {
  if (value === null || value === undefined) return '–';
  return value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

export const us = (value) => (value === null || value === undefined ? '–' : `${value.toFixed(1)} µs`);

export function markdownTable(columns, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [
    line(columns),
    line(columns.map(() => '---')),
    ...rows.map((row) => line(row.map((cell) => String(cell ?? '–')))),
  ].join('\n');
}

/** Least-squares slope and intercept of y over x. */
export function linearFit(points) {
  const n = points.length;
  const mx = mean(points.map(([x]) => x)) ?? 0;
  const my = mean(points.map(([, y]) => y)) ?? 0;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  const slope = n > 1 && sxx > 0 ? sxy / sxx : 0;
  return { slope, intercept: my - slope * mx };
}

/** @type {(delayMs: number) => Promise<void>} */
export const sleep = (delayMs) => new Promise((resolve) => setTimeout(resolve, delayMs));
