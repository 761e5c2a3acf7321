import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetHtml, SERVER_HTML_REPORT } from '../src/fleet/report/index.js';
import { FLEET_REPORT, HOSTILE_NAME, LONG_HINT, longHintFleet } from '../src/fleet/report/fleet-report.fixture.js';
import { INJECTION } from '../src/report/html.fixture.js';
import { renderHtmlReport } from '../src/report/html.js';
import { CHROMIUM, HAVE_CHROMIUM, sharedChromium, visitPage, type Visit } from './helpers/browser.js';

if (!HAVE_CHROMIUM)
  console.warn(`skipping the fleet dashboard browser tests: ${CHROMIUM} is missing (apt-get install chromium)`);

describe.skipIf(!HAVE_CHROMIUM)('the fleet HTML dashboard in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  let url: string;
  const pages: Page[] = [];

  async function open(target: string): Promise<Visit> {
    const opened = await visitPage(browser, target);
    pages.push(opened.page);
    return opened;
  }

  /**
   * The output directory as the fleet command lays it out: the dashboard, and each audited server's own report.html
   * beside its report.json.
   */
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fleet-html-'));
    await writeFile(join(dir, 'report.html'), fleetHtml(FLEET_REPORT), 'utf8');
    for (const server of FLEET_REPORT.servers) {
      if (server.reportFile === undefined || server.report === undefined) continue;
      const file = join(dir, dirname(server.reportFile), SERVER_HTML_REPORT);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, renderHtmlReport(server.report), 'utf8');
    }
    url = pathToFileURL(join(dir, 'report.html')).href;
    browser = await sharedChromium();
  });

  afterAll(async () => {
    for (const page of pages) await page.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads without console or page errors, and requests nothing but the file itself', async () => {
    const { page, requests, problems } = await open(url);
    await page.waitForTimeout(200);
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    expect(await page.title()).toBe('MCP Tools conformance fleet: 9 servers');
  });

  it('shows a row per server with its outcome, and the count of each outcome', async () => {
    const { page } = await open(url);
    const rows = await page
      .locator('#servers tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [
          tr.getAttribute('data-outcome'),
          tr.querySelector('[data-cell="outcome"]')?.textContent,
          tr.querySelector('[data-cell="depth"]')?.textContent,
        ]),
      );
    expect(rows).toEqual([
      ['conformant', 'conformant', '3/3'],
      [
        'failing',
        'failing',
        `1/12, 9 checks skipped (no callable tool)deeper with --allow-tools 'weather:${INJECTION}'`,
      ],
      ['warnings', 'warnings', '0/2, 4 checks skipped (no callable tool)deeper with --allow-tools warn-only:echo'],
      ['could-not-start', 'could not start', '—'],
      ['unreachable', 'unreachable', '—'],
      ['needs-secret', 'needs secret', '—'],
      ['timed-out', 'timed out', '—'],
      ['invalid-entry', 'invalid entry', '—'],
      ['skipped', 'skipped', '—'],
    ]);
    for (const [outcome, count] of Object.entries(FLEET_REPORT.summary)) {
      expect(await page.locator(`[data-outcome-count="${outcome}"]`).textContent(), outcome).toBe(String(count));
    }
  });

  it("a server's name opens its own report", async () => {
    const { page, problems } = await open(url);
    await page.locator('#servers tr[data-index="2"] [data-cell="server"] a').click();
    // The click starts the navigation; wait for the server's own page, not for the load state of the one clicked on.
    await page.waitForURL(pathToFileURL(join(dir, 'servers/warn-only/report.html')).href, {
      waitUntil: 'load',
      timeout: 10_000,
    });
    expect(page.url()).toBe(pathToFileURL(join(dir, 'servers/warn-only/report.html')).href);
    expect(await page.title()).toBe('MCP Tools conformance report: warn-only');
    expect(await page.locator('[data-summary="warn"]').textContent()).toBe('1');
    expect(problems).toEqual([]);
    expect(await page.locator('#servers tr[data-index="3"] [data-cell="server"] a').count()).toBe(0);
  });

  it('shows every column inside a 1280 px viewport, a long unbreakable hint in Depth and a long why included', async () => {
    const file = join(dir, 'long-hints.html');
    await writeFile(file, fleetHtml(longHintFleet()), 'utf8');
    const { page } = await open(pathToFileURL(file).href);
    // Folded or open, the hint stays inside its cell.
    for (const [width, unfold] of [
      [1280, false],
      [1280, true],
      [2600, true],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      if (unfold)
        await page
          .locator('details.hint')
          .evaluateAll((nodes) => nodes.forEach((node) => ((node as HTMLDetailsElement).open = true)));
      const box = await page.evaluate(() => {
        const why = document.querySelector('#servers thead th:last-child')!.getBoundingClientRect();
        const cells = [...document.querySelectorAll('#servers tbody td[data-cell="why"]')].map(
          (td) => td.getBoundingClientRect().right,
        );
        const table = document.querySelector('#servers')!.getBoundingClientRect();
        const hints = [...document.querySelectorAll('#servers [data-cell="depth"] code')].map(
          (code) => code.getBoundingClientRect().right,
        );
        const depth = document.querySelector('#servers thead th:nth-child(7)')!.getBoundingClientRect().right;
        return {
          whyLeft: why.left,
          whyRight: why.right,
          whyWidth: why.width,
          tableWidth: table.width,
          cellsRight: Math.max(...cells),
          tableRight: table.right,
          hintsRight: Math.max(...hints),
          depthRight: depth,
          scrollWidth: document.documentElement.scrollWidth,
        };
      });
      expect(box.hintsRight, `${width} px`).toBeLessThanOrEqual(box.depthRight + 1);
      expect(box.whyWidth / box.tableWidth, `${width} px: Why keeps its share`).toBeGreaterThan(0.25);
      expect(box.whyLeft, `${width} px`).toBeGreaterThanOrEqual(0);
      expect(box.whyRight, `${width} px`).toBeLessThanOrEqual(width);
      expect(box.cellsRight, `${width} px`).toBeLessThanOrEqual(width);
      expect(box.tableRight, `${width} px`).toBeLessThanOrEqual(width);
      expect(box.scrollWidth, `${width} px: nothing scrolls sideways`).toBeLessThanOrEqual(width);
    }
    // The hint is still there, whole, to copy.
    expect(await page.locator('#servers [data-cell="depth"] details.hint > code').first().textContent()).toBe(
      LONG_HINT,
    );
  });

  it("a server's own report lists its failure before its warnings, and a finding opens its outcome", async () => {
    const failing = FLEET_REPORT.servers.find((s) => s.outcome === 'failing')!.report!;
    // Its warning first in report order, as when the warning's area comes first.
    const checks = [...failing.checks].sort((a, b) => (a.status === 'warn' ? -1 : b.status === 'warn' ? 1 : 0));
    expect(checks.map((c) => c.status).indexOf('warn')).toBeLessThan(checks.map((c) => c.status).indexOf('fail'));
    const file = join(dir, 'warn-first.html');
    await writeFile(file, renderHtmlReport({ ...failing, checks }), 'utf8');
    const { page, problems } = await open(pathToFileURL(file).href);
    expect(
      await page.locator('#findings-list li').evaluateAll((items) => items.map((li) => li.getAttribute('data-status'))),
    ).toEqual(['fail', 'warn']);
    const first = await page.locator('#findings-list li a').first().getAttribute('href');
    await page.locator('#findings-list li a').first().click();
    const opened = page.locator(`details.check[id="${first!.slice(1)}"]`);
    expect(await opened.getAttribute('data-status')).toBe('fail');
    await expect.poll(() => opened.evaluate((node) => (node as HTMLDetailsElement).open)).toBe(true);
    // On screen, the findings come before the check outcomes.
    const [listTop, outcomesTop] = await page.evaluate(() =>
      ['#findings-list', '#outcomes'].map(
        (s) => document.querySelector(s)!.getBoundingClientRect().top + window.scrollY,
      ),
    );
    expect(listTop).toBeLessThan(outcomesTop!);
    expect(problems).toEqual([]);
  });

  it('renders hostile names and text as text: no element, script or dialog comes from them', async () => {
    const { page, problems } = await open(url);
    await page.locator('details.stderr').evaluate((node) => ((node as HTMLDetailsElement).open = true));
    await page.waitForTimeout(200);
    expect(problems).toEqual([]);
    expect(await page.locator('img, svg, b, iframe, object, embed, script').count()).toBe(0);
    const name = await page.locator('#servers tr[data-index="1"] [data-cell="server"] a').textContent();
    expect(name).toBe(HOSTILE_NAME.replace('\u202e', '\\u202e').replace('\u001b', '\\x1b'));
    expect(await page.locator('details.stderr pre').textContent()).toContain(`\\x1b[31mfatal${INJECTION}`);
  });
});
