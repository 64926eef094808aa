import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/summary/schema.js';
import { parseTrace } from '../../src/scorers/index.js';
import { evalRun, hangbench, root } from '../cli/run-helpers.js';
import { openBrowser, type Browser } from './chromium.js';

interface XmlDocument {
  querySelector(selector: string): { readonly textContent: string | null } | null;
  querySelectorAll(selector: string): { readonly length: number };
}

const ARTIFACTS = path.join(root, '.test-artifacts');
const CASES = ['node-busy-loop', 'ctl-block-buffered', 'bash-tail-follow'].map((id) =>
  path.join(root, 'cases', `${id}.yaml`),
);

describe('report.html in a real headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  let runDir = '';
  let summary: RunSummary;

  beforeAll(async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'hangbench-browser-'));
    // baseline: it kills on the monitor's classification and never fixes, so the run has solved and failed attempts
    runDir = await evalRun(out, 'browser', ['--agent', 'baseline'], CASES);
    const rendered = await hangbench(['report', runDir]);
    if (rendered.exitCode !== 0) throw new Error(rendered.stderr);
    summary = JSON.parse(await readFile(path.join(runDir, 'summary.json'), 'utf8')) as RunSummary;
    browser = await openBrowser();
    page = browser.page;
    await page.goto(pathToFileURL(path.join(runDir, 'report.html')).href);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('loads from disk with no console error and no network request', async () => {
    expect(await page.locator('#shown').textContent()).toBe(
      `${summary.attempts.length} of ${summary.attempts.length} attempts`,
    );
    expect(browser.problems).toEqual([]);
  });

  it('draws a timeline for every attempt, with a bar per command and the summary charts', async () => {
    const cards = page.locator('section.attempt');
    expect(await cards.count()).toBe(summary.attempts.length);
    for (let index = 0; index < summary.attempts.length; index += 1) {
      const card = cards.nth(index);
      expect(await card.locator('svg.timeline').count()).toBe(1);
      expect(await card.locator('svg.timeline rect.cmd').count()).toBeGreaterThan(0);
    }
    expect(await page.locator('svg.rates-chart g.rate').count()).toBeGreaterThan(0);
    expect(await page.locator('svg.tradeoff-chart g.variant-point').count()).toBe(summary.groups.length);
  });

  it('a filter hides what it should', async () => {
    const failed = summary.attempts.filter((attempt) => !attempt.scores.solved).length;
    expect(failed).toBeGreaterThan(0);
    const visible = () =>
      page
        .locator('section.attempt:visible')
        .evaluateAll((cards) =>
          cards.map((card) => [card.getAttribute('data-case'), card.getAttribute('data-outcome')]),
        );
    await page.selectOption('select[data-filter="outcome"]', 'failed');
    expect(await visible()).toEqual(summary.attempts.filter((a) => !a.scores.solved).map((a) => [a.caseId, 'failed']));
    expect(await page.locator('section.attempt[hidden]').count()).toBe(summary.attempts.length - failed);
    await page.selectOption('select[data-filter="outcome"]', '');
    await page.selectOption('select[data-filter="case"]', 'ctl-block-buffered');
    expect((await visible()).map(([caseId]) => caseId)).toEqual(['ctl-block-buffered']);
    await page.selectOption('select[data-filter="case"]', '');
    expect(await page.locator('#shown').textContent()).toBe(
      `${summary.attempts.length} of ${summary.attempts.length} attempts`,
    );
  });

  it("a tick's detail opens with the text exactly as delivered and the decision that followed", async () => {
    const attempt = summary.attempts.find((a) => a.caseId === 'node-busy-loop')!;
    const events = parseTrace(
      await readFile(path.join(runDir, attempt.caseId, attempt.variant, String(attempt.repeat), 'trace.jsonl'), 'utf8'),
    );
    const ticks = events.filter((event) => event.type === 'tick');
    const decision = events.find((event) => event.type === 'decision');
    expect(ticks.length).toBeGreaterThan(0);
    const card = page.locator(`section.attempt[data-case="${attempt.caseId}"]`);
    const index = decision
      ? ticks.findIndex((tick) => tick.tickSeq === decision.tickSeq && tick.commandId === decision.commandId)
      : 0;
    await card.locator(`g.tick[data-tick="${index}"]`).click();
    const detail = card.locator('.tick-detail');
    await detail.waitFor({ state: 'visible' });
    expect(await detail.locator('pre.tick-text').textContent()).toBe(ticks[index]!.rendered);
    expect(await detail.locator('.decision').textContent()).toBe(
      `decision: ${decision ? decision.action : 'none recorded'}`,
    );
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'report.png'), fullPage: true });
    // A real full-page PNG: the signature, then IHDR's width and height, those of the whole page (not the viewport).
    const png = await readFile(path.join(ARTIFACTS, 'report.png'));
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const [width, height] = await page.evaluate<number[]>(
      '[document.documentElement.scrollWidth, document.documentElement.scrollHeight]',
    );
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({ width, height });
    expect(height).toBeGreaterThan(1000);
  });

  it('opens an attempt from its permalink #case/variant/repeat', async () => {
    const attempt = summary.attempts.at(-1)!;
    const key = `${attempt.caseId}/${attempt.variant}/${attempt.repeat}`;
    await page.goto(`${pathToFileURL(path.join(runDir, 'report.html')).href}#${encodeURI(key)}`);
    await page.locator('section.attempt.target').waitFor();
    expect(await page.locator('section.attempt.target').getAttribute('data-key')).toBe(key);
    expect(browser.problems).toEqual([]);
  });

  it('writes a junit.xml the browser parses as XML', async () => {
    const xml = await readFile(path.join(runDir, 'junit.xml'), 'utf8');
    const parsed = await page.evaluate((text) => {
      // runs in the page: the test's tsconfig has no DOM library, so the parser's shape is spelled out
      const { DOMParser: Parser } = globalThis as unknown as {
        DOMParser: new () => { parseFromString(xml: string, type: string): XmlDocument };
      };
      const doc = new Parser().parseFromString(text, 'application/xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        cases: doc.querySelectorAll('testcase').length,
      };
    }, xml);
    expect(parsed).toEqual({ error: null, cases: summary.attempts.length });
  });
});
