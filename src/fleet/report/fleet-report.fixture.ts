import { scrubSecrets, secretValues } from '../../engine/scrub.js';
import type { CheckResult } from '../../model/check.js';
import type { FleetFinding, FleetReport, FleetServerResult } from '../../model/fleet.js';
import type { RunReport } from '../../model/report.js';
import { INJECTION } from '../../report/html.fixture.js';
import { CHECKS, HOSTILE_TEXT, RUN_REPORT } from '../../report/run-report.fixture.js';
import { countByStatus } from '../../report/statuses.js';
import { OUTCOME_ORDER } from '../../model/fleet.js';

/** Test data: a token one entry's env held; the fleet report is scrubbed of it as the runner scrubs it. */
export const FLEET_SECRET = 'ghp_F1eetS3cretT0kenValue0123456789';

/**
 * A server name as hostile as a config file (or a target echoing it) could make it: markup, Markdown, bidi, escapes.
 */
export const HOSTILE_NAME = `weather${INJECTION}|*_[x](javascript:alert(4))\u202eevil\u001b[31m`;

const byId = (id: string): CheckResult => CHECKS.find((check) => check.id === id)!;

function run(checks: CheckResult[], overrides: Partial<RunReport> = {}): RunReport {
  const summary = countByStatus(checks);
  const verdict = summary.fail > 0 ? 'fail' : 'pass';
  return {
    ...RUN_REPORT,
    aborted: undefined,
    checks,
    summary,
    verdict,
    exitCode: verdict === 'fail' ? 1 : 0,
    ...overrides,
  };
}

const pass = byId('tools.capability.declared');
const fail = byId('tools.name.charset');
const warn = byId('tools.list.deterministic-order');
const skip = byId('tools.list.pagination.cursor');

const CONFORMANT = run([pass, skip, { ...byId('tools.call.content-types') }], {
  target: { transport: 'stdio', command: 'node reference-server.js' },
  server: { name: 'reference', version: '1.0.0' },
});
const FAILING = run([pass, { ...fail, message: `${fail.message} (sent with token ${FLEET_SECRET})` }, warn, skip], {
  target: { transport: 'stdio', command: `npx weather-server --token ${FLEET_SECRET}` },
  server: { name: `${INJECTION}${HOSTILE_TEXT}` },
});
const WARNINGS = run([pass, warn], {
  target: { transport: 'http', url: 'http://127.0.0.1:3000/mcp' },
  server: { name: 'warn-only' },
});
const TIMED_OUT = run([pass, { ...skip, message: 'Skipped: the --max-duration budget ran out' }], {
  target: { transport: 'stdio', command: 'node slow.js' },
  verdict: 'aborted',
  exitCode: 3,
  aborted: { reason: 'the audit exceeded --max-duration (300 s)' },
});

function server(
  partial: Partial<FleetServerResult> & Pick<FleetServerResult, 'name' | 'outcome' | 'why'>,
): FleetServerResult {
  const report = partial.report;
  return {
    source: '.vscode/mcp.json',
    transport: 'stdio',
    durationMs: 0,
    ...(report ? { protocolVersion: report.wire.protocolVersion, summary: report.summary } : {}),
    ...partial,
  };
}

const SERVERS: FleetServerResult[] = [
  server({
    name: 'reference',
    outcome: 'conformant',
    why: 'no failures, no warnings',
    report: CONFORMANT,
    reportFile: 'servers/reference/report.json',
    depth: { toolsListed: 3, toolsCalled: 3, skippedForNoCallableTool: 0 },
    durationMs: 1234,
  }),
  server({
    name: HOSTILE_NAME,
    source: 'claude_desktop_config.json',
    outcome: 'failing',
    why: `tools.name.charset: ${fail.message}`,
    report: FAILING,
    reportFile: 'servers/weather-script-img-src-x-onerror-alert-1/report.json',
    depth: {
      toolsListed: 12,
      toolsCalled: 1,
      skippedForNoCallableTool: 9,
      deeperWith: `--allow-tools 'weather:${INJECTION}'`,
    },
    durationMs: 8765,
  }),
  server({
    name: 'warn-only',
    transport: 'http',
    outcome: 'warnings',
    why: 'tools.list.deterministic-order: Two listings returned tools in different orders',
    report: WARNINGS,
    reportFile: 'servers/warn-only/report.json',
    depth: { toolsListed: 2, toolsCalled: 0, skippedForNoCallableTool: 4, deeperWith: '--allow-tools warn-only:echo' },
    durationMs: 2500,
  }),
  server({
    name: 'missing-cmd',
    outcome: 'could-not-start',
    why: 'spawn nosuch-mcp-server ENOENT: not on PATH (PATH=/usr/bin:/bin); install it or give its full path',
    stderr: [`nosuch-mcp-server: using token ${FLEET_SECRET}`, `\u001b[31mfatal${INJECTION}`],
    durationMs: 40,
  }),
  server({
    name: 'remote',
    transport: 'http',
    outcome: 'unreachable',
    why: 'connect ECONNREFUSED 127.0.0.1:9',
    durationMs: 15,
  }),
  server({ name: 'github', outcome: 'needs-secret', why: 'needs secret: GITHUB_TOKEN' }),
  server({
    name: 'slow',
    outcome: 'timed-out',
    why: 'the audit exceeded --max-duration (300 s)',
    report: TIMED_OUT,
    reportFile: 'servers/slow/report.json',
    durationMs: 300_000,
  }),
  server({
    name: 'no-command',
    source: '.cursor/mcp.json',
    outcome: 'invalid-entry',
    why: 'neither "command" nor "url"',
  }),
  server({ name: 'old-one', source: '.cursor/mcp.json', outcome: 'skipped', why: 'disabled in its file' }),
];

const FINDINGS: FleetFinding[] = [
  {
    id: 'fleet.tool-name.shared',
    status: 'warn',
    message: 'Two servers serve a tool named "echo"',
    servers: ['reference', HOSTILE_NAME],
    tools: ['echo'],
  },
  {
    id: 'fleet.description.shadowing',
    status: 'warn',
    message: `A description of ${HOSTILE_NAME} names tool "echo" of reference: ${HOSTILE_TEXT}`,
    servers: [HOSTILE_NAME, 'reference'],
    tools: [INJECTION, 'echo'],
  },
];

/**
 * A fleet with each of the nine outcomes once, hostile names and text, and two fleet findings; scrubbed like the
 * runner's.
 */
export const FLEET_REPORT: FleetReport = scrubSecrets<FleetReport>(
  {
    tool: { name: 'mcp-tools-conformance', version: '0.1.0' },
    startedAt: '2026-08-01T10:00:00.000Z',
    durationMs: 312_345,
    files: ['.vscode/mcp.json', 'claude_desktop_config.json', '.cursor/mcp.json'],
    summary: {
      conformant: 1,
      failing: 1,
      warnings: 1,
      'could-not-start': 1,
      unreachable: 1,
      'needs-secret': 1,
      'timed-out': 1,
      'invalid-entry': 1,
      skipped: 1,
    },
    servers: SERVERS,
    findings: FINDINGS,
    failOn: 'must',
    failOnUnavailable: false,
    exitCode: 1,
  },
  secretValues({}, { WEATHER_TOKEN: FLEET_SECRET }),
);

const ZERO_OUTCOMES = Object.fromEntries(OUTCOME_ORDER.map((outcome) => [outcome, 0])) as FleetReport['summary'];

/** A fleet too large for one PR comment: `count` failing servers, each with `checksEach` failures of long messages. */
export function largeFleet(count: number, checksEach: number): FleetReport {
  const servers = Array.from({ length: count }, (_, i): FleetServerResult => {
    const checks = Array.from({ length: checksEach }, (_, j) => ({
      ...fail,
      tool: `tool_${j}`,
      message: `finding ${j} of server ${i}: ${'x'.repeat(150)}`,
    }));
    const report = run(checks);
    return server({
      name: `server-${i}`,
      outcome: 'failing',
      why: 'tools.name.charset',
      report,
      reportFile: `servers/server-${i}/report.json`,
    });
  });
  return { ...FLEET_REPORT, servers, findings: [], summary: { ...ZERO_OUTCOMES, failing: count } };
}

/**
 * An --allow-tools hint of 40 tools: one token with no space, as a server with many tools not marked read-only gets.
 */
export const LONG_HINT =
  `--allow-tools ` + `${Array.from({ length: 40 }, (_, i) => `filesystem:tool_number_${i}`).join(',')}`;

/** FLEET_REPORT with LONG_HINT as every audited server's deeper-with hint, and a why of one long unbroken path. */
export function longHintFleet(): FleetReport {
  const servers = FLEET_REPORT.servers.map((server): FleetServerResult => {
    if (server.depth) return { ...server, depth: { ...server.depth, deeperWith: LONG_HINT } };
    if (server.outcome === 'could-not-start') return { ...server, why: `spawn ${'/very/long/path'.repeat(30)} ENOENT` };
    return server;
  });
  return { ...FLEET_REPORT, servers };
}
