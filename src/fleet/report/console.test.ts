import { describe, expect, it } from 'vitest';
import type { FleetReport, FleetServerResult } from '../../model/fleet.js';
import type { RunReport } from '../../model/report.js';
import { palette } from '../../report/color.js';
import { fleetConsoleLines } from './console.js';

const server = (name: string, more: Partial<FleetServerResult>): FleetServerResult => ({
  name,
  source: 'mcp.json',
  transport: 'stdio',
  outcome: 'conformant',
  why: 'ok',
  durationMs: 1500,
  ...more,
});

const failingReport = {
  target: { transport: 'stdio' },
  checks: [
    { id: 'tools.schema.input-valid-object', status: 'fail', tool: 'bad', message: 'inputSchema type is "string"' },
    { id: 'tools.name.charset', status: 'warn', message: 'a space' },
    { id: 'tools.list.respond', status: 'pass', message: '' },
  ],
} as unknown as RunReport;

function fleet(servers: FleetServerResult[], more: Partial<FleetReport> = {}): FleetReport {
  const summary = {
    conformant: 0,
    warnings: 0,
    failing: 0,
    'could-not-start': 0,
    unreachable: 0,
    'needs-secret': 0,
    'timed-out': 0,
    'invalid-entry': 0,
    skipped: 0,
  };
  for (const s of servers) summary[s.outcome] += 1;
  return {
    tool: { name: 'mcp-tools-conformance', version: '1' },
    startedAt: '',
    durationMs: 4200,
    files: ['mcp.json'],
    summary,
    servers,
    findings: [],
    failOn: 'must',
    failOnUnavailable: false,
    exitCode: 1,
    ...more,
  };
}

describe('fleetConsoleLines', () => {
  it('a table row per server, the findings grouped by server, a line of why for each non-conformant one, the totals', () => {
    const lines = fleetConsoleLines(
      fleet([
        server('ref', {
          protocolVersion: '2026-07-28',
          summary: { pass: 9, fail: 0, warn: 0, skip: 1, error: 0 },
          depth: { toolsListed: 11, toolsCalled: 8, skippedForNoCallableTool: 0 },
        }),
        server('broken', {
          outcome: 'failing',
          why: '1 fail: tools.schema.input-valid-object',
          protocolVersion: '2025-11-25',
          summary: { pass: 1, fail: 1, warn: 1, skip: 0, error: 0 },
          report: failingReport,
          reportFile: 'servers/broken/report.json',
        }),
        server('gone', {
          outcome: 'could-not-start',
          why: "cannot start 'x': ENOENT",
          stderr: ['one', 'two', 'three', 'four'],
          durationMs: 300,
        }),
        server('locked', { outcome: 'needs-secret', why: 'needs KEY', durationMs: 0 }),
        server('shallow', {
          protocolVersion: '2024-11-05',
          summary: { pass: 3, fail: 0, warn: 0, skip: 2, error: 0 },
          depth: {
            toolsListed: 9,
            toolsCalled: 0,
            skippedForNoCallableTool: 2,
            deeperWith: '--allow-tools shallow:<tool>,…',
          },
        }),
      ]),
      palette(false),
      ['/out/fleet.json'],
    );
    expect(lines[0]).toMatch(/^Server\s+Transport\s+Revision\s+Outcome\s+Fails\s+Warns\s+Depth\s+Time$/);
    expect(lines[1]).toMatch(/^ref\s+stdio\s+2026-07-28\s+conformant\s+0\s+0\s+8\/11\s+1\.5 s$/);
    expect(lines[2]).toMatch(/^broken\s+stdio\s+2025-11-25\s+failing\s+1\s+1\s+-\s+1\.5 s$/);
    expect(lines[3]).toMatch(/^gone\s+stdio\s+-\s+could not start\s+-\s+-\s+-\s+300 ms$/);
    expect(lines[4]).toMatch(/^locked\s+stdio\s+-\s+needs secret\s+-\s+-\s+-\s+-$/);
    const text = lines.join('\n');
    expect(text).toContain(
      'Findings\n  broken\n    FAIL tools.schema.input-valid-object [bad]: inputSchema type is ' +
        '"string"\n    WARN tools.name.charset: a space',
    );
    expect(text).toContain(
      'Why\n  broken: failing: 1 fail: tools.schema.input-valid-object\n  gone: could not start: cannot start ' +
        "'x': ENOENT\n    stderr: one\n    stderr: two\n    stderr: three\n  locked: needs secret: needs KEY",
    );
    expect(text).not.toContain('four');
    expect(lines[5]).toMatch(/^shallow\s+stdio\s+2024-11-05\s+conformant\s+0\s+0\s+0\/9, 2 skipped\s+1\.5 s$/);
    expect(text).toContain(
      'Depth\n  shallow: 0 of 9 tools called, 2 check(s) skipped for want of a tool it may call; deeper with ' +
        '--allow-tools shallow:<tool>,…',
    );
    expect(lines.at(-2)).toBe(
      'Fleet: 5 servers: 2 conformant, 1 failing, 1 could not start, 1 needs secret in 4.2 s (exit 1)',
    );
    expect(lines.at(-1)).toBe('Report: /out/fleet.json');
  });

  it('makes names and reasons from files and servers terminal-safe, and counts the servers of other shards', () => {
    const finding = {
      id: 'fleet.tools.same-name',
      status: 'warn' as const,
      message: 'the tool "read\u202efile" is served by 2 servers',
      servers: ['a', 'b'],
      tools: ['read\u202efile'],
    };
    const lines = fleetConsoleLines(
      fleet(
        [
          server('evil\u001b[2J', { outcome: 'unreachable', why: 'said \u001b]8;;x\u0007' }),
          server('elsewhere', { outcome: 'skipped', why: 'in another shard than 1/2' }),
        ],
        { shard: { index: 1, count: 2 }, findings: [finding] },
      ),
      palette(false),
    );
    const text = lines.join('\n');
    // eslint-disable-next-line no-control-regex -- no escape sequence may reach the terminal
    expect(text).not.toMatch(/\u001b/);
    expect(text).toContain('evil\\x1b[2J');
    expect(text).not.toContain('elsewhere');
    expect(text).toContain('(1 server in other shards than 1/2)');
    expect(text).toContain(
      'Fleet findings\n  WARN fleet.tools.same-name: the tool "read\\u202efile" is served by 2 servers',
    );
    expect(text).not.toContain('\u202e');
  });

  it('names the transport as the file declares it: an sse entry is sse, reached or not; an http URL found to be HTTP+SSE is sse', () => {
    const aborted = {
      target: { transport: 'http', url: 'http://127.0.0.1:1/sse' },
      checks: [],
    } as unknown as RunReport;
    const fellBack = {
      target: { transport: 'http+sse', url: 'http://127.0.0.1:2/sse' },
      checks: [],
    } as unknown as RunReport;
    const lines = fleetConsoleLines(
      fleet([
        server('old', { transport: 'sse', outcome: 'unreachable', why: 'ECONNREFUSED', report: aborted }),
        server('declared-http', { transport: 'http', protocolVersion: '2024-11-05', report: fellBack }),
        server('plain', { transport: 'http', outcome: 'unreachable', why: 'ECONNREFUSED', report: aborted }),
      ]),
      palette(false),
    );
    expect(lines.slice(1, 4).map((line) => line.split(/\s+/).slice(0, 2))).toEqual([
      ['old', 'sse'],
      ['declared-http', 'sse'],
      ['plain', 'http'],
    ]);
  });
});
