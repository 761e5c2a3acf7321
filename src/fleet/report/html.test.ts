import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../model/redacted.js';
import { fleetHtml } from './html.js';
import { STYLE } from '../../report/html/style.js';
import { FLEET_REPORT, FLEET_SECRET, LONG_HINT, longHintFleet } from './fleet-report.fixture.js';
import { serverHtmlHref } from './rows.js';

const ESCAPED_INJECTION = '&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;';
const html = fleetHtml(FLEET_REPORT);

describe('fleet HTML dashboard', () => {
  it('has a row per server, in fleet order, with its outcome, counts, depth, seconds and why', () => {
    const rows = [...html.matchAll(/<tr data-index="(\d+)" data-outcome="([\w-]+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((m) => [Number(m[1]), m[2]])).toEqual(FLEET_REPORT.servers.map((s, i) => [i, s.outcome]));
    const cell = (row: string, name: string) => new RegExp(`data-cell="${name}">([\\s\\S]*?)</t[dh]>`).exec(row)?.[1];
    const reference = rows[0]![3]!;
    expect(cell(reference, 'server')).toBe(
      '<a href="servers/reference/report.html">reference</a><br><span class="muted">.vscode/mcp.json</span>',
    );
    expect(cell(reference, 'revision')).toBe('2026-07-28');
    expect(cell(reference, 'outcome')).toBe('<span class="badge pass">conformant</span>');
    expect(cell(reference, 'depth')).toBe('3/3');
    expect(cell(reference, 'seconds')).toBe('1.2');
    expect(reference).toContain(
      '<td class="fail zero" data-count="fail">0</td><td class="warn zero" data-count="warn">0</td>',
    );
    const weather = rows[1]![3]!;
    expect(weather).toContain(
      '<td class="fail nonzero" data-count="fail">1</td><td class="warn nonzero" data-count="warn">1</td>',
    );
    expect(cell(weather, 'depth')).toBe(
      `1/12, 9 checks skipped (no callable tool)<br><span class="muted">deeper with <code>--allow-tools ` +
        `&#39;weather:${ESCAPED_INJECTION}&#39;</code></span>`,
    );
    const missing = rows[3]![3]!;
    expect(cell(missing, 'server')).toBe('missing-cmd<br><span class="muted">.vscode/mcp.json</span>');
    expect(missing).toContain('<td class="fail zero" data-count="fail">—</td>');
    expect(cell(missing, 'why')).toBe(
      `<span class="untrusted">spawn nosuch-mcp-server ENOENT: not on PATH (PATH=/usr/bin:/bin); install it or ` +
        `give its full path</span><details class="stderr"><summary>stderr</summary><pre>nosuch-mcp-server: using ` +
        `token ${REDACTED}\n\\x1b[31mfatal${ESCAPED_INJECTION}</pre></details>`,
    );
    expect(cell(rows[6]![3]!, 'seconds')).toBe('300.0');
  });

  it('lays the servers table out so that no cell can push Why off the page (the browser test measures it at 1280 px)', () => {
    // Fixed layout: each column a share of the page's width, whatever its cells hold, Why the largest.
    expect(STYLE).toMatch(/#servers \{ table-layout: fixed; \}/);
    const cols = [...html.matchAll(/<col class="([\w-]+)">/g)].map((m) => m[1]!);
    expect(cols).toEqual(['server', 'transport', 'revision', 'outcome', 'fails', 'warns', 'depth', 'seconds', 'why']);
    expect(html.match(/<thead><tr>(.*?)<\/tr><\/thead>/)![1]!.match(/<th/g)).toHaveLength(cols.length);
    const widths = Object.fromEntries(
      cols.map((col) => [col, Number(new RegExp(`#servers col\\.${col} \\{ width: (\\d+)%; \\}`).exec(STYLE)?.[1])]),
    );
    expect(Object.values(widths).reduce((a, b) => a + b, 0)).toBe(100);
    expect(Math.max(...Object.values(widths))).toBe(widths.why);
    // A token longer than its column (a path, a hint) breaks inside its cell rather than overflow it.
    expect(STYLE).toContain('#servers tbody td, #servers tbody th { overflow-wrap: anywhere; }');

    // A long hint: folded under a summary that counts its tools, kept whole, breakable after each comma.
    const long = fleetHtml(longHintFleet());
    const folded = [
      ...long.matchAll(/<details class="hint"><summary class="muted">(.*?)<\/summary><code>(.*?)<\/code><\/details>/g),
    ];
    expect(folded).toHaveLength(longHintFleet().servers.filter((s) => s.depth).length);
    expect(folded[0]![1]).toBe('deeper with <code class="flag">--allow-tools</code> for 40 tools');
    expect(folded[0]![2]).toBe(LONG_HINT.replace(/,/g, ',<wbr>'));
    // No run of text without a break opportunity is longer than a tool of the hint.
    expect(Math.max(...folded[0]![2]!.split(/<wbr>|\s/).map((run) => run.length))).toBeLessThanOrEqual(
      'filesystem:tool_number_39,'.length,
    );
  });

  it('shows the count of each outcome', () => {
    for (const [outcome, count] of Object.entries(FLEET_REPORT.summary))
      expect(html).toContain(`data-outcome-count="${outcome}">${count}<`);
    expect(html).toContain(`data-outcome-count="total">9<`);
    expect(html).toContain('<span data-exit-code>1</span>');
  });

  it('links each audited server to its own report.html, beside its report.json', () => {
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([
      'servers/reference/report.html',
      'servers/weather-script-img-src-x-onerror-alert-1/report.html',
      'servers/warn-only/report.html',
      'servers/slow/report.html',
    ]);
    expect(serverHtmlHref({ reportFile: 'servers/a b/report.json' })).toBe('servers/a%20b/report.html');
    expect(serverHtmlHref({ reportFile: 'javascript:alert(1)/report.json' })).toBe('javascript%3Aalert(1)/report.html');
    expect(serverHtmlHref({ reportFile: 'servers\\x"><b>\\report.json' })).toBe('servers/x%22%3E%3Cb%3E/report.html');
    expect(serverHtmlHref({ reportFile: '/etc/report.json' })).toBeUndefined();
    expect(serverHtmlHref({ reportFile: 'C:\\out\\report.json' })).toBeUndefined();
    expect(serverHtmlHref({})).toBeUndefined();
  });

  it('lists the fleet findings', () => {
    const rows = [...html.matchAll(/<tr data-finding="([^"]+)">/g)].map((m) => m[1]);
    expect(rows).toEqual(['fleet.tool-name.shared', 'fleet.description.shadowing']);
    expect(fleetHtml({ ...FLEET_REPORT, findings: [] })).toContain('<h2>Fleet findings</h2><p class="muted">None:');
  });

  it('lets no markup through from names, why, stderr or findings, runs no script, loads nothing, and shows no secret', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<b>/);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the page
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e\ud800]/);
    expect(html).toContain(`weather${ESCAPED_INJECTION}|*_[x](javascript:alert(4))\\u202eevil\\x1b[31m`);
    expect(html).toContain('script-src &#39;none&#39;');
    expect(html).toContain('default-src &#39;none&#39;');
    expect(html).not.toMatch(/\s(src|href)="(?!servers\/)/);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toContain(FLEET_SECRET);
  });
});
