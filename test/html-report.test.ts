import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../src/report/html.js';
import { INJECTION, hostileReport } from '../src/report/html.fixture.js';
import { STATUSES, countByStatus } from '../src/report/statuses.js';
import { auditedRuns, type RevisionsReport, type RunReport } from '../src/model/report.js';
import { CHROMIUM, HAVE_CHROMIUM, sharedChromium, visitPage, type Visit } from './helpers/browser.js';
import { BUILT, ROOT, referenceCommand, runCli, startReferenceHttp } from './helpers/cli.js';

/** One MUST failure (tools.tool.shape) and one SHOULD warning (tools.name.charset). */
const DEFECTS = ['--defect', 'tool-title-not-string', '--defect', 'tool-name-with-space'];

if (!HAVE_CHROMIUM) {
  console.warn(`skipping the HTML report browser tests: ${CHROMIUM} is missing (apt-get install chromium)`);
}

describe.skipIf(!HAVE_CHROMIUM || !BUILT)('the HTML report in headless Chromium', () => {
  let browser: Browser;
  let report: RunReport;
  let htmlUrl: string;
  let outputDir: string;
  const visits: Page[] = [];

  async function visit(url: string): Promise<Visit> {
    const opened = await visitPage(browser, url);
    visits.push(opened.page);
    return opened;
  }

  beforeAll(async () => {
    const run = await runCli(['--stdio', referenceCommand(...DEFECTS), '--reporter', 'json,html']);
    expect(run.code).toBe(1);
    report = run.report!;
    outputDir = run.outputDir;
    htmlUrl = pathToFileURL(join(outputDir, 'report.html')).href;
    browser = await sharedChromium();
  });

  afterAll(async () => {
    for (const page of visits) await page.close();
    if (outputDir) await rm(outputDir, { recursive: true, force: true });
  });

  it('loads without console errors or page errors, and requests nothing but the file itself', async () => {
    const { page, requests, problems } = await visit(htmlUrl);
    await page.waitForTimeout(200);
    expect(problems).toEqual([]);
    expect(requests).toEqual([htmlUrl]);
    expect(await page.title()).toContain('MCP Tools conformance report');
  });

  it('shows the summary and per-area counts of report.json', async () => {
    const { page } = await visit(htmlUrl);
    expect(report.summary.fail).toBeGreaterThan(0);
    expect(report.summary.warn).toBeGreaterThan(0);
    for (const status of STATUSES) {
      expect(await page.locator(`[data-summary="${status}"]`).textContent(), status).toBe(
        String(report.summary[status]),
      );
    }
    expect(await page.locator('[data-summary="total"]').textContent()).toBe(String(report.checks.length));

    const areas = [...new Set(report.checks.map((check) => check.area))];
    const shown = await page.locator('#matrix tbody tr').evaluateAll((rows) =>
      rows.map((row) => ({
        area: row.getAttribute('data-area'),
        counts: Object.fromEntries(
          Array.from(row.querySelectorAll('td[data-count]')).map((cell) => [
            cell.getAttribute('data-count'),
            Number(cell.textContent),
          ]),
        ),
      })),
    );
    expect(shown.map((row) => row.area)).toEqual(areas);
    for (const row of shown) {
      const inArea = report.checks.filter((check) => check.area === row.area);
      expect(row.counts, row.area ?? '').toEqual({ total: inArea.length, ...countByStatus(inArea) });
    }
    expect(await page.locator('details.check').count()).toBe(report.checks.length);
    expect(await page.locator('[data-coverage-source]').getAttribute('data-coverage-source')).toBe('catalog');
  });

  it('opens on "failures only" when there are findings: every fail, warn and error shown, passes and skips hidden', async () => {
    const { page, problems } = await visit(htmlUrl);
    const failing = report.checks.filter((check) => ['fail', 'warn', 'error'].includes(check.status));
    const passing = report.checks.find((check) => check.status === 'pass')!;
    expect(await page.locator('#failures-only').isChecked()).toBe(true);
    expect(await page.locator(`[id="check-${passing.id}"]`).isVisible()).toBe(false);
    await page.uncheck('#failures-only');
    expect(await page.locator(`[id="check-${passing.id}"]`).isVisible()).toBe(true);

    await page.check('#failures-only');
    const visible = await page
      .locator('details.check:visible')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status')));
    expect(visible).toHaveLength(failing.length);
    expect(new Set(visible)).toEqual(new Set(failing.map((check) => check.status)));
    expect(await page.locator(`[id="check-${passing.id}"]`).isVisible()).toBe(false);
    for (const check of failing)
      expect(await page.locator(`details.check[data-check="${check.id}"]`).first().isVisible(), check.id).toBe(true);
    expect(await page.locator('#shown-count').textContent()).toBe(String(failing.length));
    expect(await page.locator('section.area:visible').count()).toBe(new Set(failing.map((check) => check.area)).size);

    await page.uncheck('#failures-only');
    expect(await page.locator('details.check:visible').count()).toBe(report.checks.length);

    await page.uncheck('#filters input[value="pass"]');
    expect(await page.locator('details.check:visible').count()).toBe(report.checks.length - report.summary.pass);
    expect(await page.locator('#failures-only').isChecked()).toBe(false);
    expect(problems).toEqual([]);
  });

  it('has an anchor check-<id> for a failing check that opens it when linked', async () => {
    const failing = report.checks.find((check) => check.status === 'fail')!;
    expect(failing.id).toBe('tools.tool.shape');
    const { page } = await visit(`${htmlUrl}#check-${failing.id}`);
    const target = page.locator(`[id="check-${failing.id}"]`);
    expect(await target.count()).toBe(1);
    expect(await target.getAttribute('data-status')).toBe('fail');
    expect(await target.evaluate((node) => (node as HTMLDetailsElement).open)).toBe(true);
    expect(await target.locator('.message').first().textContent()).toBe(failing.message);
    expect(await target.locator('.ev-item').count()).toBeGreaterThan(0);
  });

  it('a client audit on the initialize wire (SDK v1, judged on 2025-11-25): loads cleanly, names the revision, opens its failing check', async () => {
    const run = await runCli([
      'client',
      '--command',
      `${process.execPath} ${join(ROOT, 'examples/clients/sdk-v1/driver.mjs')}`,
      '--reporter',
      'json,html',
    ]);
    try {
      expect(run.report!.wire.protocolVersion).toBe('2025-11-25');
      const failing = run.report!.checks.find((check) => check.status === 'fail')!;
      const url = pathToFileURL(join(run.outputDir, 'report.html')).href;
      const { page, requests, problems } = await visit(`${url}#check-${failing.id}`);
      await page.waitForTimeout(200);
      expect(problems).toEqual([]);
      expect(requests).toEqual([`${url}#check-${failing.id}`.split('#')[0]]);
      expect(await page.locator('body').textContent()).toContain('2025-11-25');
      const target = page.locator(`[id="check-${failing.id}"]`);
      expect(await target.getAttribute('data-status')).toBe('fail');
      expect(await target.evaluate((node) => (node as HTMLDetailsElement).open)).toBe(true);
      expect(await target.locator('.message').first().textContent()).toBe(failing.message);
    } finally {
      await rm(run.outputDir, { recursive: true, force: true });
    }
  });

  it('renders hostile target text as text: no element, script or dialog comes from it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'html-hostile-'));
    try {
      const file = join(dir, 'report.html');
      await writeFile(file, renderHtmlReport(hostileReport()), 'utf8');
      const { page, requests, problems } = await visit(pathToFileURL(file).href);
      await page
        .locator('details.check[data-status="fail"]')
        .evaluate((node) => ((node as HTMLDetailsElement).open = true));
      await page.waitForTimeout(200);
      expect(problems).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(await page.locator('img, svg, b, iframe, object, embed').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(1);
      const failing = page.locator('details.check[data-status="fail"]');
      expect(await failing.locator('summary .untrusted').textContent()).toContain(INJECTION);
      expect(await failing.locator('.message').first().textContent()).toContain(
        `bad tool ${INJECTION} said evil \\x1b[2Jclear`,
      );
      expect(await failing.locator('.evidence').textContent()).toContain(INJECTION);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!HAVE_CHROMIUM || !BUILT)('the --revisions HTML matrix in headless Chromium', () => {
  /** A revision the SDK v1 server does not support (it has no server/discover), and two it agrees. */
  const REVISIONS = ['2026-07-28', '2025-11-25', '2024-11-05'];
  let browser: Browser;
  let report: RevisionsReport;
  let htmlUrl: string;
  let outputDir: string;
  const pages: Page[] = [];

  async function open(url: string): Promise<Visit> {
    const opened = await visitPage(browser, url);
    pages.push(opened.page);
    return opened;
  }

  beforeAll(async () => {
    const sdkV1 = `${process.execPath} ${join(ROOT, 'test/fixtures/sdk-v1-server.mjs')}`;
    const run = await runCli(['--stdio', sdkV1, '--revisions', REVISIONS.join(','), '--reporter', 'json,html'], {
      timeoutMs: 120_000,
    });
    report = run.report as unknown as RevisionsReport;
    outputDir = run.outputDir;
    htmlUrl = pathToFileURL(join(outputDir, 'report.html')).href;
    browser = await sharedChromium();
  }, 130_000);

  afterAll(async () => {
    for (const page of pages) await page.close();
    if (outputDir) await rm(outputDir, { recursive: true, force: true });
  });

  it('loads without errors and requests nothing but the file itself', async () => {
    const { page, requests, problems } = await open(htmlUrl);
    await page.waitForTimeout(200);
    expect(problems).toEqual([]);
    expect(requests).toEqual([htmlUrl]);
    expect(await page.title()).toContain('MCP Tools conformance revision matrix');
  });

  it('shows a column per revision and a row per check, each cell the status report.json gives it', async () => {
    const { page } = await open(htmlUrl);
    const heads = await page
      .locator('#revision-matrix thead th[data-revision]')
      .evaluateAll((cells) => cells.map((c) => [c.getAttribute('data-revision'), c.textContent]));
    expect(heads).toEqual([
      ['2026-07-28', '2026-07-28not supported'],
      ['2025-11-25', '2025-11-25'],
      ['2024-11-05', '2024-11-05'],
    ]);
    const rows = await page.locator('#revision-matrix tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        id: tr.getAttribute('data-check'),
        cells: Array.from(tr.querySelectorAll('td')).map((td) => [
          td.getAttribute('data-revision'),
          td.getAttribute('data-cell'),
          td.textContent,
        ]),
      })),
    );
    expect(rows.map((row) => row.id)).toEqual(report.matrix.map((row) => row.id));
    for (const [index, row] of report.matrix.entries()) {
      const expected = REVISIONS.map((revision) => {
        const cell = row.cells[revision as keyof typeof row.cells];
        return cell === undefined ? [revision, 'not-audited', '—'] : [revision, cell, cell];
      });
      expect(rows[index]!.cells, row.id).toEqual(expected);
    }
    const outcomes = await page
      .locator('#revisions tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-revision'), tr.getAttribute('data-outcome')]));
    expect(outcomes).toEqual(
      report.revisions.map((entry) => [
        entry.revision,
        entry.status === 'audited' ? entry.run.verdict : 'not-supported',
      ]),
    );
    for (const { revision, run } of auditedRuns(report)) {
      expect(await page.locator(`section.revision[data-revision="${revision}"] details.check`).count(), revision).toBe(
        run.checks.length,
      );
    }
  });

  it('a status cell opens that revision\'s outcome of the check, even one the "failures only" filter hides', async () => {
    const { page, problems } = await open(htmlUrl);
    const warned = report.matrix.find((row) => row.cells['2025-11-25'] === 'warn')!;
    const passed = report.matrix.find((row) => row.cells['2025-11-25'] === 'pass')!;
    expect(await page.locator('#failures-only').isChecked()).toBe(true);
    for (const row of [warned, passed]) {
      await page.locator(`#revision-matrix tr[data-check="${row.id}"] td[data-revision="2025-11-25"] a`).click();
      const outcome = page.locator(`[id="2025-11-25-check-${row.id}"]`);
      // The page reveals the target on hashchange, which fires after the click has returned.
      await outcome.waitFor({ state: 'visible', timeout: 5000 });
      expect(await outcome.isVisible(), row.id).toBe(true);
      expect(await outcome.evaluate((node) => (node as HTMLDetailsElement).open), row.id).toBe(true);
      expect(await outcome.getAttribute('data-status'), row.id).toBe(row.cells['2025-11-25']);
      expect(
        await outcome.evaluate((node) => node.closest('section.revision')?.getAttribute('data-revision')),
        row.id,
      ).toBe('2025-11-25');
    }
    expect(problems).toEqual([]);
  });
});

describe.skipIf(!BUILT)('the HTML report and secrets', () => {
  it('never shows --header values (the evidence shows them redacted)', async () => {
    const server = await startReferenceHttp();
    try {
      const run = await runCli([
        '--url',
        server.url,
        '--header',
        'Authorization: Bearer s3cr3t-html-t0ken',
        '--header',
        'X-Api-Key: an0ther-s3cr3t',
        '--checks',
        'tools.*',
        '--reporter',
        'json,html',
      ]);
      expect(run.code).toBe(0);
      const html = readFileSync(join(run.outputDir, 'report.html'), 'utf8');
      expect(html).not.toContain('s3cr3t');
      expect(html).toContain('[redacted]');
      await rm(run.outputDir, { recursive: true, force: true });
    } finally {
      await server.stop();
    }
  });
});
