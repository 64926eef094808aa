import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchTraces } from '../../src/report/html/trace-watch.js';
import { startViewServer, type ViewServer } from '../../src/report/html/view-server.js';
import { evalRun, root } from '../cli/run-helpers.js';
import { openBrowser, type Browser } from './chromium.js';

/** What the page function touches; the test's tsconfig has no DOM library. */
interface PageGlobals {
  readonly document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };
}

describe('hangbench view in a real headless Chromium', () => {
  let server: ViewServer;
  let browser: Browser;
  let results = '';

  beforeAll(async () => {
    results = await mkdtemp(path.join(tmpdir(), 'hangbench-view-browser-'));
    server = await startViewServer({ root: results, pollMs: 100 });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("updates a running attempt's card in place as its trace grows, to its finished outcome", async () => {
    // a quiet control the oracle lets finish, then runs again fixed: two runs of 6.4 s of sleeps at time scale 0.2 in a
    // 20 s wall budget (at 0.1, two of 3.2 s in 10 s: 6.5 s measured quiet, which a loaded machine can exceed)
    const run = evalRun(results, 'live', ['--time-scale', '0.2'], [path.join(root, 'cases/ctl-silent-download.yaml')]);
    const { page } = browser;
    await new Promise<void>((resolve) => {
      const stop = watchTraces(
        results,
        (change) => {
          if (change.run !== 'live' || !change.running) return;
          stop();
          resolve();
        },
        50,
      );
    });
    await page.goto(`${server.url}/run/live/`);
    expect(await page.locator('section.attempt').getAttribute('data-outcome')).toBe('running');
    // Wait for the card to leave 'running', whatever it ends as, so a failed attempt fails here and says how it ended.
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document
          .querySelector('section.attempt')
          ?.getAttribute('data-outcome') !== 'running',
      undefined,
      { timeout: 45_000, polling: 100 },
    );
    expect(await page.locator('section.attempt').getAttribute('data-outcome')).toBe('solved');
    expect(await page.locator('#live-status').textContent()).toMatch(
      /^live · updated ctl-silent-download\/[^/]+\/1 at /,
    );
    expect(await page.locator('section.attempt').count()).toBe(1);
    expect(await page.locator('section.attempt svg.timeline g.verify').count()).toBeGreaterThan(0);
    await run;
    expect(browser.problems).toEqual([]);
  });
});
