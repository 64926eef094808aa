import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (.ci/run installs it); never a downloaded browser build. */
export const CHROMIUM = process.env.HANGBENCH_CHROMIUM ?? '/usr/bin/chromium';

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  /** console errors and warnings, page errors, and any request that left file: or loopback. */
  readonly problems: string[];
  close(): Promise<void>;
}

/** Headless chromium with a fresh profile; without the background-networking flags it reaches for the network at start. */
export async function openBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no chromium at ${CHROMIUM}: apt-get install chromium (as .ci/run does), or set HANGBENCH_CHROMIUM`,
    );
  const profile = await mkdtemp(path.join(tmpdir(), 'hangbench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
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
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (!/^(file:|http:\/\/127\.0\.0\.1:)/.test(request.url())) problems.push(`network request: ${request.url()}`);
  });
  return {
    context,
    page,
    problems,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
