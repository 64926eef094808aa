import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSummarySchema, type RunSummary } from '../../src/summary/schema.js';
import { evalRun, root } from '../cli/run-helpers.js';
import { openBrowser, type Browser } from './chromium.js';

// two hangs and a control that finish quickly at --time-scale 0.1, under six variants: 2 modes × 3 intervals
const CASES = ['node-busy-loop', 'bash-tail-follow', 'ctl-block-buffered'].map((id) =>
  path.join(root, 'cases', `${id}.yaml`),
);
const MODES = ['interval', 'no-output'];
const INTERVALS = [1000, 2000, 4000];

interface Rect {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly text: string;
}

/** Every `text` of the chart as its bounding box on the page. */
async function labelBoxes(page: Page, chart: string): Promise<Rect[]> {
  return page.locator(`${chart} text`).evaluateAll((texts) =>
    texts.map((text) => {
      const box = text.getBoundingClientRect();
      return { left: box.left, right: box.right, top: box.top, bottom: box.bottom, text: text.textContent ?? '' };
    }),
  );
}

/** Pairs of boxes that overlap by more than half a pixel each way. */
function overlapping(boxes: readonly Rect[]): string[] {
  const found: string[] = [];
  boxes.forEach((a, i) => {
    for (const b of boxes.slice(i + 1)) {
      if (
        Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
        Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5
      )
        found.push(`"${a.text}" × "${b.text}"`);
    }
  });
  return found;
}

describe('a sweep run (--mode interval,no-output --interval 1s,2s,4s, real processes) read in a real headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  let runDir = '';
  let summary: RunSummary;
  let markdown = '';

  beforeAll(async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-sweep-browser-'));
    runDir = await evalRun(
      out,
      'sweep',
      ['--agent', 'baseline', '--mode', MODES.join(','), '--interval', '1s,2s,4s'],
      CASES,
    );
    summary = RunSummarySchema.parse(JSON.parse(await readFile(path.join(runDir, 'summary.json'), 'utf8')));
    markdown = await readFile(path.join(runDir, 'report.md'), 'utf8');
    browser = await openBrowser();
    page = browser.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(pathToFileURL(path.join(runDir, 'report.html')).href);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('summarizes the sweep: a line per mode, a point per interval', () => {
    expect(summary.groups).toHaveLength(6);
    expect(summary.sweep?.axis).toBe('interval');
    expect(summary.sweep?.lines.map((line) => [line.label, line.points.map((point) => point.x)])).toEqual(
      MODES.map((mode) => [mode, INTERVALS]),
    );
    expect(summary.sweep?.lines.flatMap((line) => line.points).some((point) => point.pareto)).toBe(true);
  });

  it('never counts a control as fixed: the baseline edits nothing, so fixed over hangs is 0', () => {
    for (const group of summary.groups) {
      expect(group.fixed).toMatchObject({ count: 0, total: group.hangAttempts, over: 'hangs' });
      expect(group.intact).toMatchObject({ total: group.controlAttempts, over: 'controls' });
    }
  });

  it('writes report.md with the effects of every comparison and the sweep table', () => {
    for (const title of [
      'interrupted (hangs)',
      'false kills (controls)',
      'interrupt latency (hangs both interrupted)',
      'solved (all attempts)',
      'fixed (hangs)',
    ]) {
      expect(markdown).toContain(`#### ${title}`);
    }
    // every pair of variants on every metric: its effect a − b with an interval, or one sentence when all agree
    let [rows, agreeing] = [0, 0];
    for (const family of summary.comparisons) {
      expect(family.rows).toHaveLength(15);
      const agree =
        family.test === 'mcnemar-exact'
          ? family.rows.every((row) => row.aOnly + row.bOnly === 0)
          : family.rows.every((row) => row.zeros === row.pairs);
      if (agree) {
        agreeing += 1;
        continue;
      }
      for (const row of family.rows.filter((entry) => entry.pairs > 0)) {
        const detail = 'aOnly' in row ? `${row.aOnly} / ${row.bOnly}` : String(row.statistic);
        // a rate: `−58 pt [−80, −25]` (points once, after the difference); a shift: `+490ms [−80ms, +620ms]`
        const effect =
          family.test === 'mcnemar-exact'
            ? '[−+]?\\d+ pt \\[[−+]?\\d+, [−+]?\\d+\\]'
            : '[−+]?[\\d.]+m?s \\[[−+]?[\\d.]+m?s, [−+]?[\\d.]+m?s\\]';
        expect(markdown).toMatch(
          new RegExp(
            `\\| ${row.a} \\| ${row.b} \\| ${row.pairs} \\| ${detail} \\| ${effect} \\| [^|]+ \\| (\\*\\*baseline[^|]+\\*\\*|no difference (≥ [^|]+ shown|shown \\(too few pairs to show any\\))) \\|`,
          ),
        );
        rows += 1;
      }
    }
    expect(rows).toBeGreaterThan(0);
    expect(markdown.match(/agree on every attempt both ran: no difference shown/g)?.length ?? 0).toBe(agreeing);
    expect(markdown).toContain('### Sweep over the interval (the mode’s period)');
    for (const mode of MODES)
      for (const seconds of [1, 2, 4])
        expect(markdown).toMatch(new RegExp(`\\| ${seconds}s \\| ${mode} \\| baseline-k2·${mode}-${seconds}s \\|`));
  });

  it('loads report.html with no console error or network request', () => {
    expect(browser.problems).toEqual([]);
  });

  it('draws the sweep chart with one line per mode and a point per interval on each panel', async () => {
    const latencyLines = await page
      .locator('svg.sweep-chart g.panel.latency path.line')
      .evaluateAll((paths) => paths.map((line) => line.getAttribute('data-line')));
    expect(latencyLines).toEqual(MODES);
    const rateLines = await page
      .locator('svg.sweep-chart g.panel.rates path.line.interrupted')
      .evaluateAll((paths) => paths.map((line) => line.getAttribute('data-line')));
    expect(rateLines).toEqual(MODES);
    for (const mode of MODES) {
      const latencyPoints = await page
        .locator(`svg.sweep-chart g.panel.latency g.point[data-line="${mode}"]`)
        .evaluateAll((marks) => marks.map((mark) => Number(mark.getAttribute('data-x'))));
      expect(latencyPoints).toEqual(INTERVALS);
      const interruptedPoints = await page
        .locator(`svg.sweep-chart g.panel.rates g.point.interrupted[data-line="${mode}"]`)
        .evaluateAll((marks) => marks.map((mark) => Number(mark.getAttribute('data-x'))));
      expect(interruptedPoints).toEqual(INTERVALS);
    }
  });

  it('keeps every label of the sweep chart and the trade-off chart clear of every other', async () => {
    for (const chart of ['svg.sweep-chart', 'svg.tradeoff-chart']) {
      const boxes = await labelBoxes(page, chart);
      expect(boxes.length).toBeGreaterThan(6);
      expect(overlapping(boxes)).toEqual([]);
    }
    // one label per spot on the trade-off chart, however many variants share it
    const labels = await page.locator('svg.tradeoff-chart text.point-label').allTextContents();
    const listed = await page.locator('svg.tradeoff-chart text.point-label tspan').allTextContents();
    expect([...listed].sort()).toEqual(summary.groups.map((group) => group.variant).sort());
    expect(labels.length).toBeLessThanOrEqual(summary.groups.length);
  });

  it('fits the variants table and the page into 1280 px', async () => {
    // runs in the page: the test's tsconfig has no DOM library, so the document's shape is spelled out
    const width = await page.evaluate(() => {
      const { document: doc } = globalThis as unknown as { document: { documentElement: { scrollWidth: number } } };
      return doc.documentElement.scrollWidth;
    });
    expect(width).toBeLessThanOrEqual(1280);
    const table = await page.locator('table.variants').evaluate((element) => element.getBoundingClientRect().right);
    expect(table).toBeLessThanOrEqual(1280);
  });
});
