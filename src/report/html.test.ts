import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../suites/index.js';
import { ROOT } from '../../test/helpers/cli.js';
import type { CatalogRow } from '../catalog/coverage-notes.js';
import type { CheckDefinition } from '../runner/types.js';
import type { CheckResult } from '../model/check.js';
import { createHtmlReporter, HTML_REPORT_FILE, outcomeAnchors, registryCoverage, renderHtmlReport } from './html.js';
import { coverageFromCatalog, coverageFromRegistry } from './html/coverage.js';
import { MAX_BLOCK_CHARS, MAX_OUTCOME_EVIDENCE_CHARS, MAX_PAGE_EVIDENCE_CHARS } from './html/evidence.js';
import { hostileReport } from './html.fixture.js';
import { CHECKS, RUN_REPORT } from './run-report.fixture.js';
import { countByStatus, STATUSES } from './statuses.js';
import type { RunReport } from '../model/report.js';

const ESCAPED_INJECTION = '&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;';

function between(html: string, open: string, close: string): string[] {
  return [...html.matchAll(new RegExp(`${open}([\\s\\S]*?)${close}`, 'g'))].map((m) => m[1] ?? '');
}

function cspSources(html: string, directive: string): string[] {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
  const decoded = content.replace(/&#39;/g, "'");
  const entry = decoded
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === directive);
  return entry?.slice(1) ?? [];
}

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

describe('HTML report: escaping of target-controlled text', () => {
  const html = renderHtmlReport(hostileReport());

  it('lets no markup or script through from tool names, messages, evidence, server identity or tool lists', () => {
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<svg/i);
    expect(html).not.toMatch(/<b>/);
    expect(html).not.toMatch(/onerror=alert\(1\)>/);
    expect(html).toContain(ESCAPED_INJECTION);
    expect(html).toContain('&quot;&gt;&lt;svg onload=alert(3)&gt;');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('shows terminal escapes, controls, bidi overrides and lone surrogates as visible escapes', () => {
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the page
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e\ud800]/);
    expect(html).toContain('\\x1b[2Jclear');
    expect(html).toContain('\\u202eabc');
    expect(html).toContain('NUL\\x00');
    expect(html).toContain('lone\\ud800');
  });

  it('keeps quoted text in every place it is shown (escaped, not dropped)', () => {
    const bodies = between(html, '<details class="check"', '</details>');
    const failing = bodies.find((body) => body.includes('data-status="fail"')) ?? '';
    expect(failing.split(ESCAPED_INJECTION).length - 1).toBeGreaterThanOrEqual(6);
    expect(html).toContain(`<title>MCP Tools conformance report: ${ESCAPED_INJECTION}`);
  });

  it('admits only its own style and script, by hash, and nothing from anywhere', () => {
    const [style] = between(html, '<style>', '</style>');
    const [script] = between(html, '<script>', '</script>');
    expect(cspSources(html, 'default-src')).toEqual(["'none'"]);
    expect(cspSources(html, 'style-src')).toEqual([sha256Source(style ?? '')]);
    expect(cspSources(html, 'script-src')).toEqual([sha256Source(script ?? '')]);
    expect(html).not.toMatch(/\s(src|href)="(?!#|https:\/\/modelcontextprotocol\.io\/)/);
    expect(html).not.toMatch(/\sstyle="/);
  });
});

describe('HTML report: anchors', () => {
  it('names the first outcome of a check check-<id> and further ones check-<id>-2, -3, …', () => {
    const outcome = (id: string): CheckResult => ({ ...(CHECKS[0] as CheckResult), id });
    expect(outcomeAnchors([outcome('a.b'), outcome('c'), outcome('a.b'), outcome('a.b'), outcome('c')])).toEqual([
      'check-a.b',
      'check-c',
      'check-a.b-2',
      'check-a.b-3',
      'check-c-2',
    ]);
  });

  it('puts each anchor on its outcome element, unique across the page', () => {
    const report = { ...RUN_REPORT, checks: [...CHECKS, { ...(CHECKS[1] as CheckResult), tool: 'second' }] };
    const ids = [
      ...renderHtmlReport(report).matchAll(
        /<details class="check" id="([^"]+)" data-status="(\w+)" data-check="([^"]+)"/g,
      ),
    ];
    const anchors = outcomeAnchors(report.checks);
    expect(ids.map((m) => m[1]).sort()).toEqual([...anchors].sort());
    expect(new Set(anchors).size).toBe(anchors.length);
    expect(anchors).toContain('check-tools.name.charset-2');
    const statusByAnchor = new Map(anchors.map((anchor, i) => [anchor, report.checks[i]?.status]));
    for (const [, anchor, status] of ids) expect(statusByAnchor.get(anchor ?? '')).toBe(status);
  });

  it('cannot collide: no registered check ID is another one followed by -<number>', () => {
    const ids = new Set(ALL_CHECKS.map((check) => check.id));
    const clashes = [...ids].filter((id) => /-\d+$/.test(id) && ids.has(id.replace(/-\d+$/, '')));
    expect(clashes).toEqual([]);
  });
});

describe('HTML report: counts', () => {
  const html = renderHtmlReport(RUN_REPORT);

  it('shows the summary counts of the report', () => {
    for (const status of STATUSES) expect(html).toContain(`data-summary="${status}">${RUN_REPORT.summary[status]}<`);
    expect(html).toContain(`data-summary="total">${RUN_REPORT.checks.length}<`);
    expect(html).toContain(
      `<span id="shown-count">${RUN_REPORT.checks.length}</span> of ${RUN_REPORT.checks.length} outcomes shown`,
    );
  });

  it('shows one matrix row per area, in order of appearance, with its counts per status', () => {
    const rows = [...html.matchAll(/<tr data-area="([^"]+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((m) => m[1])).toEqual(['lifecycle', 'tools-list', 'tools-call']);
    for (const [, area, cells] of rows) {
      const counts = countByStatus(CHECKS.filter((c) => c.area === area));
      for (const status of STATUSES) expect(cells).toContain(`data-count="${status}">${counts[status]}<`);
      expect(cells).toContain(`data-count="total">${CHECKS.filter((c) => c.area === area).length}<`);
    }
  });

  it('shows the header facts and the abort reason', () => {
    expect(html).toContain('2026-07-28');
    expect(html).toContain('evil-server \\x1b[31mx');
    expect(html).toContain('6.2 s');
    expect(html).toMatch(/<dt>Requests<\/dt><dd>12<\/dd>/);
    expect(html).toMatch(/slow<\/span> ×1, <span class="untrusted">echo<\/span> ×2/);
    expect(html).toContain('id="aborted"');
  });

  it('names the revision the run was judged under, the one the target agreed', () => {
    expect(html).toContain('judged under MCP revision 2026-07-28. Text quoted');
    const older = renderHtmlReport({
      ...RUN_REPORT,
      wire: { protocolVersion: '2024-11-05', reason: 'initialize agreed protocol version 2024-11-05' },
    });
    expect(older).toContain('judged under MCP revision 2024-11-05. Text quoted');
    expect(older).not.toContain('2025-11-25');
  });
});

describe('HTML report: evidence', () => {
  const withEvidence = (evidence: CheckResult['evidence']): RunReport => ({
    ...RUN_REPORT,
    checks: [{ ...(CHECKS[1] as CheckResult), evidence }],
  });

  it('pretty-prints request, headers, HTTP status, response and notifications', () => {
    const html = renderHtmlReport(RUN_REPORT);
    expect(html).toContain('exchange #3');
    expect(html).toContain('&quot;method&quot;: &quot;tools/list&quot;');
    expect(html).toContain('&quot;authorization&quot;: &quot;[redacted]&quot;');
    expect(html).toContain('HTTP 200');
    expect(html).toContain('notifications (1)');
    expect(html).toContain('timeout: no response within 5000 ms');
  });

  it('cuts a long string with a visible marker', () => {
    const html = renderHtmlReport(withEvidence([{ note: 'big', data: { text: 'y'.repeat(100_000) } }]));
    expect(html).toMatch(/…\[truncated \d+ chars\]/);
    expect(html.length).toBeLessThan(MAX_BLOCK_CHARS + 40_000);
  });

  it('keeps at most ten items per outcome and says how many were dropped', () => {
    const html = renderHtmlReport(withEvidence(Array.from({ length: 25 }, (_, i) => ({ note: `item ${i}` }))));
    expect(html).toContain('item 9');
    expect(html).not.toContain('item 10<');
    expect(html).toContain('15 more evidence item(s) dropped');
  });

  it('bounds the evidence of one outcome and of the whole page', () => {
    const big = {
      note: 'big',
      data: { text: 'z'.repeat(4000), list: Array.from({ length: 100 }, (_, i) => `entry ${i} ${'w'.repeat(100)}`) },
    };
    const one = renderHtmlReport(withEvidence(Array.from({ length: 10 }, () => big)));
    expect(one).toContain('more evidence block(s) not shown');
    expect(one.length).toBeLessThan(MAX_OUTCOME_EVIDENCE_CHARS * 1.5 + 40_000);
    const many: RunReport = {
      ...RUN_REPORT,
      checks: Array.from({ length: 300 }, () => ({
        ...(CHECKS[1] as CheckResult),
        evidence: Array.from({ length: 10 }, () => big),
      })),
    };
    const page = renderHtmlReport(many);
    expect(page.length).toBeLessThan(MAX_PAGE_EVIDENCE_CHARS * 1.5 + 300 * 3000);
    expect(page).toContain('size limit reached');
  });
});

describe('HTML report: coverage', () => {
  const definition = (id: string, covers?: string[]): CheckDefinition => ({
    id,
    keyword: 'MUST',
    title: id,
    specRef: 'server/tools',
    area: 'a',
    sentences: {},
    ...(covers && { covers }),
    run: () => [],
  });
  const row = (id: string, role: string): CatalogRow => ({
    id,
    keyword: 'MUST',
    role,
    section: 's',
    testability: 'server-blackbox',
  });
  const result = (id: string, status: CheckResult['status']): CheckResult => ({
    ...(CHECKS[0] as CheckResult),
    id,
    status,
  });

  it('counts server-side catalog requirements with a check, and those this run decided', () => {
    const definitions = [definition('r1'), definition('r2.refined', ['r2']), definition('r3'), definition('x')];
    const catalog = [
      row('r1', 'server'),
      row('r2', 'both'),
      row('r3', 'server'),
      row('r4', 'server'),
      row('c1', 'client'),
    ];
    const figure = coverageFromCatalog(definitions, catalog, [
      result('r1', 'pass'),
      result('r2.refined', 'fail'),
      result('r3', 'skip'),
    ]);
    expect(figure).toEqual({ source: 'catalog', requirements: 4, covered: 3, exercised: 2, checks: 4 });
  });

  it('without the catalog, counts the requirement IDs the registry names, and says so', () => {
    const figure = coverageFromRegistry(
      [definition('r1'), definition('r2.refined', ['r2'])],
      [result('r2.refined', 'warn')],
    );
    expect(figure).toEqual({ source: 'registry', covered: 3, exercised: 2, checks: 2 });
    expect(renderHtmlReport(RUN_REPORT, { coverage: figure })).toContain('The requirements catalog was not found');
  });

  it('measures the real registry against data/requirements-catalog.json', () => {
    const catalog = (
      JSON.parse(readFileSync(join(ROOT, 'data/requirements-catalog.json'), 'utf8')) as { rows: CatalogRow[] }
    ).rows;
    const figure = registryCoverage([], catalog);
    expect(figure.source).toBe('catalog');
    expect(figure.requirements).toBe(catalog.filter((r) => r.role === 'server' || r.role === 'both').length);
    expect(figure.covered).toBeGreaterThan(50);
    expect(figure.exercised).toBe(0);
    expect(figure.checks).toBe(ALL_CHECKS.length);
    const html = renderHtmlReport(RUN_REPORT, { coverage: figure });
    expect(html).toContain(
      `<strong data-coverage="covered">${figure.covered}</strong> of <strong data-coverage="requirements">` +
        `${figure.requirements}</strong>`,
    );
  });
});

describe('HTML reporter', () => {
  it('writes report.html into the output folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'html-reporter-'));
    try {
      const path = await createHtmlReporter().finish(RUN_REPORT, dir);
      expect(path).toBe(join(dir, HTML_REPORT_FILE));
      const html = await readFile(join(dir, HTML_REPORT_FILE), 'utf8');
      expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
      expect(html).toContain('id="coverage"');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('HTML report: the filters it opens with', () => {
  const box = (html: string, status: string) => new RegExp(`value="${status}" checked`).test(html);
  it('opens on failures only when there are fails, warnings or errors', () => {
    const html = renderHtmlReport(RUN_REPORT);
    expect(html).toContain('id="failures-only" checked');
    expect(['fail', 'warn', 'error'].map((s) => box(html, s))).toEqual([true, true, true]);
    expect(['pass', 'skip'].map((s) => box(html, s))).toEqual([false, false]);
  });

  it('opens on everything when there are none', () => {
    const clean = {
      ...RUN_REPORT,
      summary: { pass: 2, fail: 0, warn: 0, skip: 1, error: 0 },
      checks: RUN_REPORT.checks.filter((c) => c.status === 'pass' || c.status === 'skip'),
    };
    const html = renderHtmlReport(clean);
    expect(html).not.toContain('id="failures-only" checked');
    expect(STATUSES.every((s) => box(html, s))).toBe(true);
  });
});

describe('HTML report: a client audit', () => {
  it('names the tools the client was listed and never called, escaped', () => {
    const client: NonNullable<RunReport['client']> = {
      scenarios: ['x-mcp-header'],
      exit: { kind: 'exited', code: 0 },
      messages: 3,
      driverLines: 1,
      notCalled: ['header_plain', '<b>x</b>'],
    };
    const html = renderHtmlReport({ ...RUN_REPORT, client });
    expect(html).toMatch(
      /<dt>Not called<\/dt><dd>.*header_plain.*&lt;b&gt;x&lt;\/b&gt;.*no tools\/call for them reached the scripted server/,
    );
    expect(renderHtmlReport({ ...RUN_REPORT, client: { ...client, notCalled: undefined } })).not.toContain(
      'Not called',
    );
  });
});

describe('HTML report: the findings first', () => {
  it('lists every failure, then every warning, then every error, whatever their areas, each linking to its outcome', () => {
    // A warning of the first area, then a failure of a later one, in report order.
    const warn = CHECKS.find((c) => c.status === 'warn')!;
    const fail = CHECKS.find((c) => c.status === 'fail')!;
    const error = CHECKS.find((c) => c.status === 'error')!;
    const checks: CheckResult[] = [
      { ...error, area: 'lifecycle' },
      { ...warn, area: 'lifecycle' },
      CHECKS[0]!,
      { ...fail, area: 'tools-call' },
    ];
    const html = renderHtmlReport({ ...RUN_REPORT, checks, summary: countByStatus(checks) });
    const list = between(html, '<section id="findings-list">', '</section>')[0]!;
    const items = [...list.matchAll(/<li data-status="(\w+)"><a href="#([^"]+)">/g)].map((m) => [m[1], m[2]]);
    const anchors = outcomeAnchors(checks);
    expect(items).toEqual([
      ['fail', anchors[3]],
      ['warn', anchors[1]],
      ['error', anchors[0]],
    ]);
    for (const [, anchor] of items) expect(html).toContain(`<details class="check" id="${anchor}"`);
    // The list comes before the outcomes, and says nothing when there is nothing to say.
    expect(html.indexOf('id="findings-list"')).toBeLessThan(html.indexOf('id="outcomes"'));
    const clean = [CHECKS[0]!];
    expect(renderHtmlReport({ ...RUN_REPORT, checks: clean, summary: countByStatus(clean) })).not.toContain(
      'findings-list',
    );
  });

  it('escapes what it quotes of the target and lists at most 100, saying how many more there are', () => {
    const warn = {
      ...CHECKS.find((c) => c.status === 'warn')!,
      tool: '<b>x</b>',
      message: 'said <img src=x>\nsecond line',
    };
    const checks = Array.from({ length: 130 }, () => warn);
    const html = renderHtmlReport({ ...RUN_REPORT, checks, summary: countByStatus(checks) });
    const list = between(html, '<section id="findings-list">', '</section>')[0]!;
    expect(list.match(/<li /g)).toHaveLength(100);
    expect(list).toContain('… 30 more in the check outcomes below.');
    expect(list).toContain(
      '<span class="untrusted">&lt;b&gt;x&lt;/b&gt;</span> <span class="muted">said &lt;img src=x&gt;</span>',
    );
    expect(list).not.toContain('second line');
  });
});

describe('HTML report: the tools called', () => {
  const facts = (stats: RunReport['stats']) =>
    /<dt>Tools called<\/dt><dd>(.*?)<\/dd>/.exec(renderHtmlReport({ ...RUN_REPORT, stats }))![1];
  it('names our probes of unlisted names apart from the listed tools called, so that they agree with the depth', () => {
    const probe = 'mtc_no_such_tool_5f3a9c';
    expect(facts({ requests: 9, toolsCalled: { echo: 2, [probe]: 3 }, toolsListed: ['echo', 'slow'] })).toBe(
      `<span class="untrusted">echo</span> ×2<br><span class="muted">and, as probes of names the server does ` +
        `not list: <span class="untrusted">${probe}</span> ×3</span>`,
    );
    expect(facts({ requests: 9, toolsCalled: { [probe]: 3 }, toolsListed: ['a', 'b', 'c', 'd', 'e', 'f'] })).toMatch(
      /^none of the tools it lists<br>.*mtc_no_such_tool_5f3a9c/,
    );
    // Without a listing (a snapshot, client mode) every name is shown as called.
    expect(facts({ requests: 9, toolsCalled: { echo: 2, [probe]: 3 } })).toBe(
      `<span class="untrusted">echo</span> ×2, <span class="untrusted">${probe}</span> ×3`,
    );
    expect(facts({ requests: 0, toolsCalled: {} })).toBe('none');
  });
});
