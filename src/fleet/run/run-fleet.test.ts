import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetEntry, FleetOutcome } from '../../model/fleet.js';
import type { RunReport } from '../../model/report.js';
import type { AuditRun } from './outcome.js';
import { running } from './audit-pool.js';
import { AUDIT_WORKER_COMMAND, AUDIT_WORKER_REUSE_FLAG } from './audit-worker-protocol.js';
import { fleetDepth, fleetExitCode, runFleet, type Auditor, type FleetPlan } from './run-fleet.js';

const entry = (name: string, more: Partial<FleetEntry> = {}): FleetEntry => ({
  name,
  source: 'mcp.json',
  transport: 'stdio',
  command: 'node',
  args: [`${name}.js`],
  ...more,
});

function plan(entries: FleetEntry[], more: Partial<FleetPlan> = {}): FleetPlan {
  return {
    toolVersion: '9.9.9',
    files: ['mcp.json'],
    entries,
    flags: { common: [], allowTools: {} },
    maxDurationMs: 60_000,
    jobs: 2,
    failOn: 'must',
    failOnUnavailable: false,
    outputDir: mkdtempSync(join(tmpdir(), 'mtc-fleet-test-')),
    cli: '/nowhere/cli.js',
    cwd: tmpdir(),
    ...more,
  };
}

function passing(echo = ''): RunReport {
  return {
    wire: { protocolVersion: '2025-11-25', reason: `agreed ${echo}` },
    stats: { requests: 3, toolsCalled: {}, toolsListed: ['a', 'b', 'c', 'd'], toolsNotAllowed: ['c', 'd'] },
    depth: { toolsListed: 4, toolsCalled: 1, skippedForNoCallableTool: 0, deeperWith: '--allow-tools c,d' },
    summary: { pass: 1, fail: 0, warn: 0, skip: 0, error: 0 },
    checks: [{ id: 'a', status: 'pass', message: echo }],
    exitCode: 0,
  } as unknown as RunReport;
}

describe('runFleet', () => {
  it('runs at most --jobs audits at once, keeps file order, and never starts a disabled, unresolved or other-shard entry', async () => {
    let now = 0;
    let most = 0;
    const started: string[] = [];
    const audit: Auditor = async (_cli, invocation) => {
      started.push(invocation.args[1]!);
      most = Math.max(most, ++now);
      await new Promise((done) => setTimeout(done, 20));
      now -= 1;
      return { exitCode: 0, killed: false, report: passing(), stderr: [], budgetMs: 1 };
    };
    const entries = [
      entry('a'),
      entry('b', { disabled: true }),
      entry('c'),
      entry('d', { missingSecrets: ['KEY'] }),
      entry('e'),
      entry('f'),
      entry('g'),
    ];
    const report = await runFleet(plan(entries, { jobs: 2 }), {}, audit);
    expect(most).toBe(2);
    expect(started.sort()).toEqual(['node a.js', 'node c.js', 'node e.js', 'node f.js', 'node g.js']);
    expect(report.servers.map((s) => [s.name, s.outcome])).toEqual([
      ['a', 'conformant'],
      ['b', 'skipped'],
      ['c', 'conformant'],
      ['d', 'needs-secret'],
      ['e', 'conformant'],
      ['f', 'conformant'],
      ['g', 'conformant'],
    ]);
    expect(report.summary).toMatchObject({ conformant: 5, skipped: 1, 'needs-secret': 1, failing: 0 });
    expect(report.servers[0]).toMatchObject({
      protocolVersion: '2025-11-25',
      reportFile: 'servers/a/report.json',
      depth: { toolsListed: 4, toolsCalled: 1, skippedForNoCallableTool: 0, deeperWith: '--allow-tools a:c,a:d' },
    });
    expect(report.exitCode).toBe(0);

    const sharded = await runFleet(plan(entries, { shard: { index: 2, count: 3 } }), {}, audit);
    expect(sharded.servers.filter((s) => s.outcome !== 'skipped').map((s) => s.name)).toEqual(['e']);
    expect(sharded.shard).toEqual({ index: 2, count: 3 });
  });

  it('starts the servers the previous fleet found longest first, new ones before them; the report keeps file order', async () => {
    const started: string[] = [];
    const audit: Auditor = async (_cli, invocation) => {
      started.push(invocation.args[1]!);
      return { exitCode: 0, killed: false, report: passing(), stderr: [], budgetMs: 1 };
    };
    const previousMs = new Map([
      ['a', 300],
      ['b', 2_900],
      ['d', 1_800],
    ]);
    const report = await runFleet(
      plan([entry('a'), entry('b'), entry('c'), entry('d')], { jobs: 1, previousMs }),
      {},
      audit,
    );
    expect(started).toEqual(['node c.js', 'node b.js', 'node d.js', 'node a.js']);
    expect(report.servers.map((s) => s.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('tells the console each start and finish with done / running / left', async () => {
    const seen: string[] = [];
    const audit: Auditor = async () => ({ exitCode: 0, killed: false, report: passing(), stderr: [], budgetMs: 1 });
    await runFleet(
      plan([entry('a'), entry('b'), entry('c')], { jobs: 1 }),
      {
        started: (name, c) => seen.push(`start ${name} ${c.done}/${c.running}/${c.left}`),
        finished: (result, c) => seen.push(`end ${result.name} ${c.done}/${c.running}/${c.left}`),
      },
      audit,
    );
    expect(seen).toEqual([
      'start a 0/1/2',
      'end a 1/0/2',
      'start b 1/1/1',
      'end b 2/0/1',
      'start c 2/1/0',
      'end c 3/0/0',
    ]);
  });

  it("scrubs every entry's env and header values out of the fleet report, whichever server echoed them", async () => {
    const secret = 'sk-live-0123456789abcdef';
    const header = 'Bearer hdr_0987654321';
    const other = 'tok_second_5555555555';
    const audit: Auditor = async (): Promise<AuditRun> => ({
      exitCode: 0,
      killed: false,
      report: passing(`${secret} ${header} ${other}`),
      stderr: [secret],
      budgetMs: 1,
    });
    const report = await runFleet(
      plan([
        entry('a', { env: { API_KEY: secret } }),
        entry('b', { transport: 'http', url: 'http://127.0.0.1:1/mcp', headers: { Authorization: header } }),
        // The same header name with another value: both values are scrubbed.
        entry('c', { transport: 'http', url: 'http://127.0.0.1:2/mcp', headers: { Authorization: other } }),
      ]),
      {},
      audit,
    );
    const text = JSON.stringify(report);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('hdr_0987654321');
    expect(text).not.toContain(other);
    expect(text).toContain('[redacted]');
  });
});

describe('runFleet: its own audit processes', () => {
  it(
    "runs each lane's audits in one process of our CLI, given their arguments on stdin, and leaves none running",
    { timeout: 20_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mtc-fleet-processes-'));
      const log = join(dir, 'processes.log');
      // A stand-in for our CLI: for each line of arguments, writes a passing report, logs its pid and the server, and
      // reports the audit's end on fd 3.
      const cli = join(dir, 'cli.mjs');
      /* eslint-disable max-len -- the source of a stand-in program, written out as it is */
      writeFileSync(
        cli,
        `import { appendFileSync, writeFileSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: process.stdin })) {
  const argv = JSON.parse(line);
  await new Promise((done) => setTimeout(done, 50));
  writeFileSync(argv[argv.indexOf('--output-dir') + 1] + '/report.json', JSON.stringify(${JSON.stringify(passing())}));
  appendFileSync(${JSON.stringify(log)}, JSON.stringify({ pid: process.pid, commandLine: process.argv.slice(2), server: argv[argv.indexOf('--stdio') + 1] }) + '\\n');
  writeSync(3, JSON.stringify({ exitCode: 0, reusable: true }) + '\\n');
}
`,
        /* eslint-enable max-len */
      );
      const entries = ['a', 'b', 'c', 'd', 'e'].map((name) => entry(name));
      const report = await runFleet(plan(entries, { jobs: 2, cli }));
      expect(report.servers.map((s) => s.outcome)).toEqual([
        'conformant',
        'conformant',
        'conformant',
        'conformant',
        'conformant',
      ]);
      const audits = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { pid: number; commandLine: string[]; server: string });
      expect(audits.map((p) => p.server).sort()).toEqual([
        'node a.js',
        'node b.js',
        'node c.js',
        'node d.js',
        'node e.js',
      ]);
      expect(new Set(audits.map((p) => p.pid)).size).toBe(2);
      expect(
        audits.every((p) => p.commandLine.join(' ') === `${AUDIT_WORKER_COMMAND} ${AUDIT_WORKER_REUSE_FLAG}`),
      ).toBe(true);
      expect(running.size).toBe(0);
    },
  );
});

describe('runFleet: what only a fleet sees', () => {
  it("reads each audited server's saved listing and reports the tool names two servers serve", async () => {
    const audit: Auditor = async (_cli, invocation) => {
      const file = invocation.args[invocation.args.indexOf('--snapshot-out') + 1]!;
      const server = invocation.args[1]!.split(' ')[1]!.replace('.js', '');
      const tools = { a: ['read_file', 'search'], b: ['read_file'], c: ['other_tool'] }[server]!.map((name) => ({
        name,
        inputSchema: { type: 'object' },
      }));
      const snapshot = {
        format: 'mcp-tools-conformance/snapshot',
        version: 1,
        capturedAt: '2026-01-01T00:00:00Z',
        capturedBy: { name: 'x', version: '1' },
        target: { transport: 'stdio' },
        wire: { protocolVersion: '2025-11-25', reason: 'r' },
        exchanges: [
          {
            request: { jsonrpc: '2.0', id: 1, method: 'initialize' },
            response: {
              jsonrpc: '2.0',
              id: 1,
              result: {
                protocolVersion: '2025-11-25',
                capabilities: { tools: {} },
                serverInfo: { name: 'x', version: '1' },
              },
            },
          },
          {
            request: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
            response: { jsonrpc: '2.0', id: 2, result: { tools } },
          },
        ],
      };
      writeFileSync(file, JSON.stringify(snapshot));
      return { exitCode: 0, killed: false, report: passing(), stderr: [], budgetMs: 1 };
    };
    const report = await runFleet(
      plan([entry('a'), entry('b'), entry('c'), entry('d', { disabled: true })]),
      {},
      audit,
    );
    expect(report.findings).toEqual([
      expect.objectContaining({ id: 'fleet.tools.same-name', servers: ['a', 'b'], tools: ['read_file'] }),
    ]);
  });
});

describe('fleetDepth', () => {
  it('names the server of each tool the flag would allow, or allows all when the server name cannot be carried', () => {
    const depth = {
      toolsListed: 3,
      toolsCalled: 1,
      skippedForNoCallableTool: 2,
      deeperWith: '--allow-tools write_file,delete',
    };
    expect(fleetDepth(depth, 'fs')).toEqual({ ...depth, deeperWith: '--allow-tools fs:write_file,fs:delete' });
    expect(fleetDepth(depth, 'my server').deeperWith).toBe('--allow-all-tools');
    expect(fleetDepth({ ...depth, deeperWith: '--allow-all-tools' }, 'fs').deeperWith).toBe('--allow-all-tools');
    const { deeperWith: _, ...none } = depth;
    expect(fleetDepth(none, 'fs')).toEqual(none);
  });
});

describe('fleetExitCode', () => {
  const code = (outcomes: FleetOutcome[], failOn: 'must' | 'should' = 'must', unavailable = false) =>
    fleetExitCode(
      outcomes.map((outcome) => ({ outcome })),
      failOn,
      unavailable,
    );
  it('1 for a failing server, for warnings only under --fail-on should; 3 for an unavailable one only with --fail-on-unavailable; skipped never counts', () => {
    expect(code(['conformant', 'warnings', 'skipped'])).toBe(0);
    expect(code(['conformant', 'warnings'], 'should')).toBe(1);
    expect(code(['failing', 'conformant'])).toBe(1);
    for (const outcome of ['could-not-start', 'unreachable', 'needs-secret', 'timed-out', 'invalid-entry'] as const) {
      expect(code(['conformant', outcome])).toBe(0);
      expect(code(['conformant', outcome], 'must', true)).toBe(3);
    }
    expect(code(['failing', 'unreachable'], 'must', true)).toBe(1);
    expect(code(['skipped'], 'must', true)).toBe(0);
  });
});
