import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../model/redacted.js';
import { FLEET_REPORT, FLEET_SECRET, largeFleet } from './fleet-report.fixture.js';
import { fleetMarkdown, MAX_COMMENT_CHARS } from './markdown.js';

const markdown = fleetMarkdown(FLEET_REPORT);
const lines = markdown.split('\n');
/** Cell separators: pipes not escaped by a backslash. */
const separators = (line: string) => line.replace(/\\./g, '').split('|').length - 1;

describe('fleet Markdown (PR comment)', () => {
  it('opens with the counts per outcome, then the table of servers', () => {
    expect(lines.slice(0, 3)).toEqual([
      '## MCP tools conformance: fleet of 9 servers',
      '',
      '✅ 1 conformant · ⚠️ 1 warnings · ❌ 1 failing · ⛔ 1 could not start · ⛔ 1 unreachable · 🔑 1 needs ' +
        'secret · ⏱️ 1 timed out · 🚫 1 invalid entry · ⏭️ 1 skipped',
    ]);
    expect(
      fleetMarkdown({ ...FLEET_REPORT, summary: { ...FLEET_REPORT.summary, unreachable: 0, skipped: 3 } }).split(
        '\n',
      )[2],
    ).toBe(
      '✅ 1 conformant · ⚠️ 1 warnings · ❌ 1 failing · ⛔ 1 could not start · 🔑 1 needs secret · ⏱️ 1 timed out ' +
        '· 🚫 1 invalid entry · ⏭️ 3 skipped',
    );
    expect(lines[4]).toBe(
      'Files `.vscode/mcp.json`, `claude_desktop_config.json`, `.cursor/mcp.json` · 5 min 12 s · exit code 1',
    );
    const header = lines.indexOf(
      '| Server | Transport | Revision | Outcome | Fails | Warns | Depth (called/listed) | Seconds | Why |',
    );
    expect(header).toBe(6);
    const rows = lines.slice(header + 2, header + 2 + FLEET_REPORT.servers.length);
    expect(rows[0]).toBe(
      '| reference | stdio | 2026-07-28 | ✅ conformant | 0 | 0 | 3/3 | 1.2 | no failures, no warnings |',
    );
    expect(rows[3]).toBe(
      '| missing-cmd | stdio | — | ⛔ could not start | — | — | — | 0.0 | spawn nosuch-mcp-server ENOENT: not ' +
        'on PATH \\(PATH=/usr/bin:/bin\\); install it or give its full path |',
    );
    expect(rows[2]).toBe(
      '| warn-only | http | 2026-07-28 | ⚠️ warnings | 0 | 1 | 0/2, 4 checks skipped \\(no callable tool\\) | ' +
        '2.5 | tools.list.deterministic-order: Two listings returned tools in different orders |',
    );
    expect(rows[5]).toBe('| github | stdio | — | 🔑 needs secret | — | — | — | — | needs secret: GITHUB\\_TOKEN |');
    expect(rows[7]).toBe('| no-command | stdio | — | 🚫 invalid entry | — | — | — | — | neither "command" nor "url" |');
    for (const row of rows) expect(separators(row), row).toBe(10);
  });

  it('marks what a server not audited lacks with one mark, whether it never started or its audit agreed no revision', () => {
    const [, , warnOnly, , remote, github] = FLEET_REPORT.servers;
    // An unreachable server's audit writes a report (every check skipped, no revision agreed): its zeros are not
    // counts.
    const lost = {
      ...warnOnly!.report!,
      wire: { ...warnOnly!.report!.wire, protocolVersion: null },
      summary: { pass: 0, fail: 0, warn: 0, skip: 5, error: 0 },
    };
    const unreachable = {
      ...remote!,
      transport: 'sse' as const,
      report: lost,
      summary: lost.summary,
      protocolVersion: null,
      reportFile: 'servers/remote/report.json',
    };
    const rows = fleetMarkdown({ ...FLEET_REPORT, servers: [unreachable, github!] })
      .split('\n')
      .filter((line) => /^\| (remote|github) /.test(line));
    expect(rows).toEqual([
      '| remote | sse | — | ⛔ unreachable | — | — | — | 0.0 | connect ECONNREFUSED 127.0.0.1:9 |',
      '| github | stdio | — | 🔑 needs secret | — | — | — | — | needs secret: GITHUB\\_TOKEN |',
    ]);
  });

  it('escapes hostile names and text: no markup, link or extra cell gets through', () => {
    const weather = lines.find((line) => line.startsWith('| weather'))!;
    expect(
      weather.startsWith(
        '| weather\\</script\\>\\<img src=x ' +
          'onerror=alert\\(1\\)\\>\\|\\*\\_\\[x\\]\\(javascript:alert\\(4\\)\\)\\\\u202eevi',
      ),
    ).toBe(true);
    expect(markdown).not.toMatch(/(?<!\\)<(script|img)/);
    expect(markdown).not.toMatch(/(?<!\\)\]\(javascript:/);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the summary
    expect(markdown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    for (const line of lines.filter((l) => l.startsWith('| `fleet.'))) expect(separators(line), line).toBe(5);
  });

  it("lists the fleet findings, then each server's findings, servers with failures first, failures before warnings", () => {
    const headings = lines.filter((line) => line.startsWith('### '));
    expect(headings).toEqual([
      '### Fleet findings',
      expect.stringMatching(/^### weather\\<\/script\\>.*: Failures$/),
      expect.stringMatching(/^### weather\\<\/script\\>.*: Warnings$/),
      '### warn-only: Warnings',
    ]);
    const failingFirst = fleetMarkdown({
      ...FLEET_REPORT,
      servers: [FLEET_REPORT.servers[2]!, FLEET_REPORT.servers[1]!],
    });
    expect(
      failingFirst
        .split('\n')
        .filter((line) => line.startsWith('### '))
        .at(-1),
    ).toBe('### warn-only: Warnings');
    expect(lines).toContain(
      '| `tools.name.charset` | ' +
        '[MUST](https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tool-names) | bad name\\! ' +
        '| Tool name contains forbidden characters; description says: evil \\\\x1b\\[2Jclear ' +
        '\\\\x1b\\]8;;http://evil.example\\\\x07link NUL\\\\x00 bell\\\\x07 cr\\\\x0dX csi\\\\x9bY ' +
        'nonchar\\\\ufffe lone\\\\ud800 rtl\\\\u202eabc \\<&"\'\\> 🎉 done \\(s…\\[\\+26 chars\\] (full text in ' +
        '`servers/weather-script-img-src-x-onerror-alert-1/report.json`) |',
    );
  });

  it("stays within GitHub's comment limit, cut at a line with a marker saying so", () => {
    const fleet = largeFleet(120, 20);
    const whole = fleetMarkdown(fleet, Number.POSITIVE_INFINITY);
    expect(whole.length).toBeGreaterThan(MAX_COMMENT_CHARS);
    const bounded = fleetMarkdown(fleet);
    expect(bounded.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(bounded.length).toBeGreaterThan(MAX_COMMENT_CHARS - 1000);
    const [kept, marker] = bounded.split('\n\n…[truncated: ');
    expect(whole.startsWith(`${kept}\n`)).toBe(true);
    expect(marker).toBe(
      `${whole.length - kept!.length} more characters; fleet.json and each server's report hold every finding]\n`,
    );
    expect(fleetMarkdown(FLEET_REPORT)).not.toContain('…[truncated');
  });

  it('shows no secret', () => {
    expect(markdown).not.toContain(FLEET_SECRET);
    expect(fleetMarkdown(FLEET_REPORT, Number.POSITIVE_INFINITY)).not.toContain(FLEET_SECRET);
    expect(JSON.stringify(FLEET_REPORT)).toContain(REDACTED);
  });
  it('says what the fleet lock found: changed servers and servers gone, or a match, or what was written', () => {
    const text = (lock: NonNullable<typeof FLEET_REPORT.lock>) => fleetMarkdown({ ...FLEET_REPORT, lock }).split('\n');
    expect(text({ mode: 'compare', file: 'fleet.lock.json', changed: ['a'], removed: ['b|c'] })).toContain(
      '**Fleet lock `fleet.lock.json` changed:** tools changed on a; servers gone from the fleet: b\\|c.',
    );
    expect(text({ mode: 'compare', file: 'fleet.lock.json', changed: [], removed: [] })).toContain(
      'Fleet lock `fleet.lock.json`: every server audited matches.',
    );
    expect(text({ mode: 'write', file: 'f.json', locked: ['a', 'b'], notLocked: ['c'] })).toContain(
      'Fleet lock `f.json` written: the tools of 2 servers; not locked (no complete tool listing): c.',
    );
    expect(markdown).not.toContain('Fleet lock');
  });
});
