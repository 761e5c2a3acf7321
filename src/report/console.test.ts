import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { colorEnabled, palette } from './color.js';
import { createConsoleReporter, type ConsoleReporterOptions } from './console.js';
import { summaryLines } from './console-summary.js';
import { RUN_REPORT } from './run-report.fixture.js';
import type { RunReport } from '../model/report.js';

const PLAIN = palette(false);

function captured(): { stream: PassThrough; output: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, output: () => Buffer.concat(chunks).toString('utf8') };
}

async function runConsole(options: Omit<ConsoleReporterOptions, 'stream'>, live = true): Promise<string> {
  const { stream, output } = captured();
  const reporter = createConsoleReporter({ ...options, stream });
  if (live) RUN_REPORT.checks.forEach((result) => reporter.onResult?.(result));
  await expect(reporter.finish(RUN_REPORT, 'ignored')).resolves.toBeUndefined();
  return output();
}

// eslint-disable-next-line no-control-regex -- the escape sequences our console writes start with ESC
const OUR_SGR = /\u001b\[(?:1|2|22|31|32|33|35|39)m/g;

describe('console reporter', () => {
  it('prints one line per check with badge, keyword, id, title and tool, then details for non-passes', async () => {
    const out = await runConsole({ color: false });
    const lines = out.split('\n');
    expect(lines).toContain('PASS MUST        tools.capability.declared Title of tools.capability.declared');
    expect(lines).toContain('FAIL MUST        tools.name.charset Tool names use only allowed characters [bad name!]');
    expect(lines).toContain('WARN SHOULD      tools.list.deterministic-order Title of tools.list.deterministic-order');
    // Skips are folded by reason after the check lines, not printed one by one.
    expect(lines).not.toContain('SKIP MAY         tools.list.pagination.cursor Title of tools.list.pagination.cursor');
    expect(lines).toContain('Skipped: 1 check outcome(s) (--verbose lists each)');
    expect(lines).toContain(
      '    1 × The target returned a single page; nothing to paginate (tools.list.pagination.cursor)',
    );
    expect(lines).toContain('ERR  SHOULD      tools.call.progress Title of tools.call.progress [slow]');
    expect(lines).toContain('      expected: names matching ^[A-Za-z0-9_.-]{1,128}$');
    expect(lines).not.toContain('      ok');
    expect(lines.filter((line) => ['lifecycle', 'tools-list', 'tools-call'].includes(line))).toHaveLength(3);
  });

  it('never emits raw control characters from target text and shows them escaped', async () => {
    const out = await runConsole({ color: false });
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the terminal
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\ufffe]/);
    expect(out).toContain(
      'evil \\x1b[2Jclear \\x1b]8;;http://evil.example\\x07link NUL\\x00 bell\\x07 cr\\x0dX csi\\x9bY',
    );
    expect(out).toContain('nonchar\\ufffe lone\\ud800 rtl\\u202eabc <&"\'> 🎉 done');
    expect(out).toContain('Server: evil-server \\x1b[31mx 1.0.0');
  });

  it('uses ANSI colours only when enabled, and only its own', async () => {
    const coloured = await runConsole({ color: true });
    expect(coloured).toContain('\u001b[31mFAIL\u001b[39m');
    expect(coloured.replace(OUR_SGR, '')).not.toContain('\u001b');
    const plain = await runConsole({ color: false });
    expect(plain).not.toContain('\u001b');
  });

  it('summarises counts, keyword x status, wire, abort, duration and written paths', async () => {
    const out = await runConsole({ color: false, writtenPaths: () => ['reports/report.json', 'reports/junit.xml'] });
    expect(out).toContain('Summary: 6 check outcome(s): 2 pass, 1 fail, 1 warn, 1 skip, 1 error');
    expect(out).toContain(
      'By keyword:\n' +
        '                pass   fail   warn   skip  error\n' +
        '  MUST             1      1      0      0      0\n' +
        '  SCHEMA           0      0      0      0      0\n' +
        '  SHOULD           0      0      1      0      1\n' +
        '  MAY              1      0      0      1      0\n' +
        '  DESCRIPTIVE      0      0      0      0      0\n',
    );
    expect(out).toContain('Wire: 2026-07-28 (server/discover advertised 2026-07-28)');
    expect(out).toContain('Audit aborted.');
    expect(out).toContain('Aborted: target exited with code 1 (during tools.call.progress)');
    expect(out).toContain('Duration: 6.2 s, 12 request(s)');
    expect(out).toContain('Reports: reports/report.json, reports/junit.xml');
    expect(await runConsole({ color: false })).not.toContain('Reports:');
  });

  it('prints the depth line when the report has a depth, and none otherwise', () => {
    const depth = { toolsListed: 12, toolsCalled: 0, skippedForNoCallableTool: 14, deeperWith: '--allow-all-tools' };
    const depthLines = (report: RunReport) =>
      summaryLines(report, PLAIN, []).filter((line) => line.startsWith('Depth:'));
    expect(depthLines({ ...RUN_REPORT, depth })).toEqual([
      'Depth: called 0 of 12 tools; 14 checks skipped for want of a callable tool — --allow-all-tools to go deeper',
    ]);
    expect(depthLines(RUN_REPORT)).toEqual([]);
  });

  it('hints at --http-connections when a property search over one HTTP connection stopped on slow answers, and only then', async () => {
    const perTool = (stoppedEarly?: string) => [
      { tool: 'get_weather', cases: 10, digest: 'x', ...(stoppedEarly ? { stoppedEarly } : {}) },
    ];
    const lines = (patch: Partial<RunReport>, stoppedEarly?: string) => {
      const property = {
        ...RUN_REPORT.checks[0]!,
        id: 'tools.output.conform.property',
        area: 'property',
        durationMs: 60_000,
        evidence: [{ note: 'cases per tool, with a digest of the arguments sent', data: perTool(stoppedEarly) }],
      };
      const report = {
        ...RUN_REPORT,
        options: { timeoutMs: 5000, maxDurationMs: 300_000, concurrency: 4 },
        checks: [...RUN_REPORT.checks, property],
        ...patch,
      };
      return summaryLines(report, PLAIN, []).filter((line) => line.startsWith('Hint:'));
    };
    const slow =
      'its answers were slow (a search allows about 100 ms of answer time per case of --runs) (505 ms per answer)';
    expect(lines({}, slow)).toEqual([
      'Hint: the property search of get_weather stopped early on slow answers, its calls one at a time over ' +
        'one HTTP connection; --http-connections 4 lets them overlap',
    ]);
    // A long search that was not slow per answer (a timeout ends a search without stoppedEarly) gets no hint.
    expect(lines({})).toEqual([]);
    expect(
      lines({ options: { timeoutMs: 5000, maxDurationMs: 300_000, concurrency: 4, httpConnections: 4 } }, slow),
    ).toEqual([]);
    expect(lines({ options: { timeoutMs: 5000, maxDurationMs: 300_000, concurrency: 4, maxRps: 2 } }, slow)).toEqual(
      [],
    );
    expect(lines({ target: { transport: 'stdio', command: 'node s.js' } }, slow)).toEqual([]);
  });

  it('lists every fail, warning and error again after the summary, one line each, errors first, with replay lines', async () => {
    const withReplay = RUN_REPORT.checks.map((c) =>
      c.status === 'fail' ? { ...c, replay: 'mcp-tools-conformance --checks x --seed 1 --replay t@1' } : c,
    );
    const { stream, output } = captured();
    const reporter = createConsoleReporter({ stream, color: false });
    await reporter.finish({ ...RUN_REPORT, checks: withReplay }, 'ignored');
    const tail = output().split('Findings (3):\n')[1]!.split('\n');
    expect(tail[0]).toMatch(/^ {2}ERR {2}tools\.call\.progress \[slow\]: /);
    expect(tail[1]).toMatch(/^ {2}FAIL tools\.name\.charset \[bad name!\]: /);
    expect(tail[2]).toBe('       replay: mcp-tools-conformance --checks x --seed 1 --replay t@1');
    expect(tail[3]).toMatch(/^ {2}WARN tools\.list\.deterministic-order: /);
  });

  it('--quiet prints no line per check: the summary and the findings only', async () => {
    const out = await runConsole({ color: false, quiet: true });
    expect(out).not.toMatch(/^PASS /m);
    expect(out).not.toMatch(/^FAIL /m);
    expect(out).not.toContain('Skipped:');
    expect(out).toContain('Summary: 6 check outcome(s)');
    expect(out).toMatch(/Findings \(3\):\n {2}ERR /);
  });

  it('prints the check lines at finish when nothing was reported live', async () => {
    const out = await runConsole({ color: false }, false);
    expect(out).toContain('FAIL MUST        tools.name.charset');
    expect(out.match(/^FAIL /gm)).toHaveLength(1);
  });

  it('caps long lines and shows evidence lines when verbose', async () => {
    const { stream, output } = captured();
    const reporter = createConsoleReporter({ stream, color: false, verbose: true });
    const [first] = RUN_REPORT.checks;
    if (first === undefined) throw new Error('fixture has no checks');
    reporter.onResult?.({ ...first, status: 'fail', message: `${'z'.repeat(10_000)}\n${'line\n'.repeat(100)}` });
    reporter.onResult?.(RUN_REPORT.checks[4] ?? first);
    const lines = output().split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(400);
    expect(lines.some((line) => line.includes('…[+9700 chars]'))).toBe(true);
    expect(lines.some((line) => /…\[\+\d+ more lines\]/.test(line))).toBe(true);
    // The exchange itself, as JSON, under a heading line.
    expect(lines).toContain('      #9 tools/call · 5000 ms · timeout: no response within 5000 ms');
    expect(lines.some((line) => /^ {10}"request": \{$/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes('"method": "tools/call"'))).toBe(true);
  });
});

describe('colorEnabled', () => {
  const tty = Object.assign(new PassThrough(), { isTTY: true });
  const pipe = new PassThrough();

  it('is on for a TTY with a plain environment', () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(tty, { NO_COLOR: '' })).toBe(true);
  });

  it('is off under NO_COLOR (any non-empty value), for non-TTY streams and TERM=dumb', () => {
    expect(colorEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: 'false' })).toBe(false);
    expect(colorEnabled(pipe, {})).toBe(false);
    expect(colorEnabled(tty, { TERM: 'dumb' })).toBe(false);
  });

  it('FORCE_COLOR forces it on (or off with 0)', () => {
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colorEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
  });
});
