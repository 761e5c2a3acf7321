import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium, which .ci/run installs; the browser tests skip visibly without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

let shared: Promise<Browser> | undefined;

/**
 * One Chromium for every browser test this test process runs (a launch costs ~1 s of CPU); the tests close the pages
 * they open, and the browser ends with the process.
 */
export function sharedChromium(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }).then((browser) => {
    browser.on('disconnected', () => (shared = undefined));
    return browser;
  });
  return shared;
}

/** A page opened at `url`, with every request it made and every console error or warning, page error and dialog. */
export interface Visit {
  page: Page;
  requests: string[];
  problems: string[];
}

/** Opens `url` in a new page of `browser` (the caller closes it), recording what a report page must never do. */
export async function visitPage(browser: Browser, url: string): Promise<Visit> {
  const page = await browser.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests, problems };
}
