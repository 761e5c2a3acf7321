#!/usr/bin/env node
// Renders the HTML report of a reference-server run (with two defects, so there is something to show) to
// docs/report-screenshot.png. Needs `npm run build` and Debian's chromium (or CHROMIUM=/path/to/chromium).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const output = join(root, 'docs/report-screenshot.png');
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const dir = mkdtempSync(join(tmpdir(), 'html-screenshot-'));

try {
  const server = 'node dist/reference-server/main.js --defect tool-title-not-string --defect tool-name-with-space';
  const run = spawnSync(
    process.execPath,
    [join(root, 'dist/cli/mcp-tools-conformance.js'), '--stdio', server, '--reporter', 'html', '--output-dir', dir],
    { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  if (run.status !== 1) throw new Error(`expected exit code 1 (failures), got ${run.status}: ${run.stderr}`);

  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    await page.check('#failures-only');
    await page
      .locator('details.check[data-status="fail"]')
      .first()
      .evaluate((details) => {
        details.open = true;
      });
    await page.screenshot({ path: output, fullPage: true });
  } finally {
    await browser.close();
  }
  process.stdout.write(`wrote ${output}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
