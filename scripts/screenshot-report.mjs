// Screenshot of a run's report.html for the README: `node scripts/screenshot-report.mjs <run-dir> <out.png> [case/variant/repeat]`,
// or of one element of it: `… <run-dir> <out.png> --element 'figure.sweep'`.
// Uses Debian's chromium through playwright-core (never a downloaded browser), like the browser tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [runDir, out, third, fourth] = process.argv.slice(2);
const element = third === '--element' ? fourth : undefined;
const permalink = third === '--element' ? undefined : third;
if (!runDir || !out || (third === '--element' && !element)) {
  console.error(
    'usage: node scripts/screenshot-report.mjs <run-dir> <out.png> [case/variant/repeat | --element <css selector>]',
  );
  process.exit(2);
}
const profile = await mkdtemp(path.join(tmpdir(), 'hangbench-shot-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.HANGBENCH_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1360, height: 1000 },
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await context.newPage();
  const url = pathToFileURL(path.resolve(runDir, 'report.html')).href + (permalink ? `#${permalink}` : '');
  await page.goto(url);
  if (element) {
    await page.locator(element).first().screenshot({ path: out });
  } else {
    // With an attempt named, the case filter shows only its case, so its card follows the summary on the page.
    if (permalink) await page.selectOption('select[data-filter="case"]', permalink.split('/')[0] ?? '');
    // Open the attempt's last tick, so the picture shows a tick as the agent saw it.
    const card = permalink ? page.locator('.attempt:not([hidden])').first() : page.locator('.attempt').first();
    const ticks = card.locator('g.tick');
    if ((await ticks.count()) > 0) await ticks.last().click();
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: 0, width: 1360, height: 1500 } });
  }
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
}
