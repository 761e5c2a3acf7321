import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFECTS } from '../reference/server/defects/index.js';
import { BUILT, explain, referenceCommand, runCli, startReferenceHttp } from './helpers/cli.js';

/**
 * The client ports (one per TCP connection) that carried each MCP method, from the reference server's --log-arrivals.
 */
function portsByMethod(log: string): Map<string, Set<string>> {
  const ports = new Map<string, Set<string>>();
  for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
    const [, origin, , method] = line.split(' ');
    const port = origin!.split(':')[1]!;
    ports.set(method!, (ports.get(method!) ?? new Set()).add(port));
  }
  return ports;
}

/** How many tools/call arrived over each client port. */
function callsByPort(log: string): number[] {
  const counts = new Map<string, number>();
  for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
    const [, origin, , method] = line.split(' ');
    if (method === 'tools/call') counts.set(origin!.split(':')[1]!, (counts.get(origin!.split(':')[1]!) ?? 0) + 1);
  }
  return [...counts.values()].sort((a, b) => b - a);
}

const logFile = () => join(mkdtempSync(join(tmpdir(), 'mtc-connections-')), 'arrivals.log');
/** Enough generated calls to need several connections at once, few enough to stay quick while each tool takes 20 ms. */
const FEW_CASES = ['--runs', '8'];

describe.skipIf(!BUILT)('--http-connections', () => {
  it(
    'by default spreads the tool calls over --concurrency connections, and a clean server stays clean; 1 keeps ' +
      'them on one',
    { timeout: 60_000 },
    async () => {
      const spreadLog = logFile();
      const oneLog = logFile();
      const [spread, one] = await Promise.all([
        startReferenceHttp('--tool-latency-ms', '20', '--log-arrivals', spreadLog),
        startReferenceHttp('--tool-latency-ms', '20', '--log-arrivals', oneLog),
      ]);
      try {
        const run = await runCli(['--url', spread.url, ...FEW_CASES]);
        expect(explain(run.report)).toBe('(no fail/warn/error)');
        expect(run.code).toBe(0);
        expect(run.report!.options.httpConnections).toBe(4);
        const ports = portsByMethod(spreadLog);
        const callPorts = ports.get('tools/call')!;
        expect(callPorts.size).toBeGreaterThan(1);
        // Up to 4 for the calls, and one more for state.no-connection-affinity's retry on a connection of its own.
        expect(callPorts.size).toBeLessThanOrEqual(5);
        // The list walks stay on one connection of the audit's client (the others are the independent connections'
        // own).
        const auditPorts = new Set([...callPorts].filter((port) => ports.get('tools/list')!.has(port)));
        expect(auditPorts.size, 'the connection that lists is one of those that call').toBeGreaterThan(0);

        const baseline = await runCli(['--url', one.url, '--http-connections', '1', ...FEW_CASES]);
        expect(explain(baseline.report)).toBe('(no fail/warn/error)');
        expect(baseline.report!.options.httpConnections).toBeUndefined();
        // With 1 every call goes over the one connection, but for state.no-connection-affinity's single retry on a
        // connection of its own.
        expect(callsByPort(oneLog).slice(1), 'with 1 every call goes over the one connection').toEqual([1]);
      } finally {
        await Promise.all([spread.stop(), one.stop()]);
      }
    },
  );

  it(
    'spreads the calls of a 2025-11-25 session over several connections, each carrying the session, and the ' +
      'server stays clean',
    { timeout: 60_000 },
    async () => {
      const log = logFile();
      const server = await startReferenceHttp(
        '--protocol-version',
        '2025-11-25',
        '--tool-latency-ms',
        '20',
        '--log-arrivals',
        log,
      );
      try {
        const run = await runCli(['--url', server.url, ...FEW_CASES]);
        expect(run.report!.wire.protocolVersion).toBe('2025-11-25');
        expect(explain(run.report)).toBe('(no fail/warn/error)');
        // The initialize wire's arrival log names the HTTP method only: the audit's own connections carry most POSTs
        // (the independent connections a handful each).
        const postsByPort = new Map<string, number>();
        for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
          const [, origin, what] = line.split(' ');
          if (what === 'POST') postsByPort.set(origin!, (postsByPort.get(origin!) ?? 0) + 1);
        }
        const posts = [...postsByPort.values()];
        expect(posts.filter((n) => n >= 10).length, `POSTs per connection: ${posts.join(', ')}`).toBeGreaterThan(1);
      } finally {
        await server.stop();
      }
    },
  );

  // The defects whose findings depend on which connection a request takes: still caught alone with the default pool.
  it.each(['connection-scoped-tools', 'tools-change-after-call', 'request-state-per-connection'])(
    'still catches %s alone',
    { timeout: 60_000 },
    async (defect) => {
      const check = DEFECTS.find((d) => d.name === defect)!.breaks;
      const server = await startReferenceHttp('--defect', defect);
      try {
        const run = await runCli(['--url', server.url, ...FEW_CASES]);
        const findings = run
          .report!.checks.filter((c) => ['fail', 'warn', 'error'].includes(c.status))
          .map((c) => `${c.status} ${c.id}`);
        const status = run.report!.checks.find((c) => c.id === check)!.keyword.startsWith('SHOULD') ? 'warn' : 'fail';
        expect(findings, explain(run.report)).toEqual([`${status} ${check}`]);
      } finally {
        await server.stop();
      }
    },
  );

  it.each([
    [
      ['--url', 'http://127.0.0.1:1/mcp', '--http-connections', '0'],
      /--http-connections must be an integer from 1 to 32/,
    ],
    [
      ['--url', 'http://127.0.0.1:1/mcp', '--http-connections', '2.5'],
      /--http-connections must be an integer from 1 to 32/,
    ],
    [
      ['--url', 'http://127.0.0.1:1/mcp', '--http-connections', '33'],
      /--http-connections must be an integer from 1 to 32/,
    ],
    [['--http-connections', '2'], /--http-connections applies to a --url target only/],
  ])('rejects %j as a usage error', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('accepts the default, 1, with a stdio target', async () => {
    const run = await runCli([
      '--stdio',
      referenceCommand(),
      '--http-connections',
      '1',
      '--checks',
      'tools.list.respond',
    ]);
    expect(run.code).toBe(0);
  });
});
