import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditedRuns, type RevisionsReport } from '../src/model/report.js';
import { BUILT, explain, ROOT, runCli, startHttpServer } from './helpers/cli.js';

const require = createRequire(import.meta.url);

/** The entry script of an npm server package (its bin), run with this node. */
function npmServer(pkg: string, ...args: string[]): string {
  const manifest = require(`${pkg}/package.json`) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!;
  return [process.execPath, join(dirname(require.resolve(`${pkg}/package.json`)), bin), ...args].join(' ');
}

// The official npm servers on the initialize wire (server-everything, -memory, -filesystem, -sequential-thinking) are
// audited once, by the census's fleet with the default flags, and their exact findings are tested on its reports there:
// test/census.test.ts, 'real npm servers on the legacy wire (stdio), as the census audits them'.

// The official Postgres server (SDK 1.0.1, as the GitHub, Slack and Brave servers of its day) agrees 2024-11-05. Its
// one tool, query, carries no annotations, so the safe default calls none; the database URL names a closed port, and
// nothing the audit sends makes it connect (tools/list and the probes do not touch the database).
describe.skipIf(!BUILT)('a real npm server on 2024-11-05 (stdio)', () => {
  it.concurrent(
    '@modelcontextprotocol/server-postgres: judged on 2024-11-05, linked to its pages, with no finding',
    { timeout: 60_000 },
    async () => {
      const run = await runCli([
        '--stdio',
        npmServer('@modelcontextprotocol/server-postgres', 'postgresql://127.0.0.1:1/none'),
        '--reporter',
        'json,console',
      ]);
      expect(run.report!.wire.protocolVersion).toBe('2024-11-05');
      expect(run.report!.server).toEqual({ name: 'example-servers/postgres', version: '0.1.0' });
      expect(
        run.report!.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.status} ${c.id}`),
        explain(run.report),
      ).toEqual([]);
      expect(run.code).toBe(0);
      const judged = run.report!.checks.filter((c) => c.status === 'pass');
      expect(judged.length).toBeGreaterThan(10);
      // A page of 2024-11-05, or (for a schema.json rule) that revision's schema.json.
      for (const check of judged)
        expect(check.specUrl, check.id).toMatch(/\/specification\/2024-11-05\/|\/schema\/2024-11-05\/schema\.json$/);
      expect(run.stdout).toContain('\nWire: 2024-11-05 (');
      expect(run.report!.stats.toolsCalled).not.toHaveProperty('query');
    },
  );
});

describe.skipIf(!BUILT)('a server built on the official SDK v2 (2026-07-28, stdio)', () => {
  it('is audited on the modern wire with exactly the justified findings', async () => {
    const run = await runCli(
      [
        '--stdio',
        `${process.execPath} ${join(ROOT, 'test/fixtures/sdk-v2-server.mjs')}`,
        '--list-changed-trigger',
        'toggle_beta',
      ],
      {
        timeoutMs: 30_000,
      },
    );
    expect(run.report!.wire).toEqual({
      protocolVersion: '2026-07-28',
      reason: 'server/discover returned a DiscoverResult',
    });
    expect(run.report!.server).toEqual({ name: 'sdk-v2-fixture', version: '1.0.0' });
    // SDK 2.4.0's serveStdio pins the version of the opening request and serves later requests naming an unsupported
    // version; basic/versioning: "the server accepts or rejects each request independently" (MUST respond -32022).
    const findings = run.report!.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip');
    expect(
      findings.map((c) => `${c.status} ${c.id}`),
      explain(run.report),
    ).toEqual(['fail version.unsupported-32022']);
    expect(findings[0]!.message).toMatch(/checks the version once per connection/);
    // The SDK's listen router acknowledges, tags and routes list_changed exactly as basic/patterns/subscriptions says.
    for (const id of [
      'subs.ack.first',
      'subs.ack.subset',
      'meta.notif.subscription-id',
      'tools.listchanged.notify',
      'subs.no-unrequested',
    ]) {
      expect(run.report!.checks.find((c) => c.id === id)?.status, id).toBe('pass');
    }
    expect(run.report!.stats.toolsCalled.toggle_beta).toBe(2);
    expect(run.code).toBe(1);
  });
});

describe.skipIf(!BUILT)('a server built on the official SDK v2 (2026-07-28, Streamable HTTP)', () => {
  it(
    'mounted bare, without the Origin validation the SDK tells deployers to add, fails http.origin.validate',
    { timeout: 60_000 },
    async () => {
      const server = await startHttpServer(join(ROOT, 'test/fixtures/sdk-v2-http-server.mjs'), '--bare');
      try {
        const run = await runCli(['--url', server.url, '--checks', 'http.origin.*'], { timeoutMs: 45_000 });
        // basic/transports/streamable-http § Security: "Servers MUST validate the Origin header on all incoming
        // connections".
        expect(run.report!.checks.map((c) => `${c.status} ${c.id}`)).toEqual([
          'fail http.origin.validate',
          'skip http.origin.403',
        ]);
        expect(run.code).toBe(1);
      } finally {
        await server.stop();
      }
    },
  );

  it('is audited on the modern wire with no fail, and two justified warnings', { timeout: 60_000 }, async () => {
    const server = await startHttpServer(join(ROOT, 'test/fixtures/sdk-v2-http-server.mjs'));
    try {
      const run = await runCli(['--url', server.url, '--list-changed-trigger', 'toggle_beta'], { timeoutMs: 45_000 });
      expect(run.report!.wire).toEqual({
        protocolVersion: '2026-07-28',
        reason: 'server/discover returned a DiscoverResult',
      });
      expect(run.report!.server).toEqual({ name: 'sdk-v2-fixture', version: '1.0.0' });
      // createMcpHandler builds a fresh server instance per HTTP request, so the version pinning seen over stdio cannot
      // happen: every request's version is checked on its own.
      // The same per-request instances mean the toggle_beta call's instance changes the set but the instance holding
      // the listen stream never hears of it: server/tools § List Changed Notification, "servers that declared the
      // listChanged capability SHOULD send a notification to clients that have opened a subscriptions/listen stream".
      const passed = (id: string) => run.report!.checks.find((c) => c.id === id)?.status;
      const findings = run.report!.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip');
      // The SDK's originValidationResponse (added in front of the handler as its docs say) rejects the foreign Origin
      // with 403 and JSON-RPC code -32000; basic/index § Error Codes: "new implementations SHOULD NOT use codes from
      // this sub-range [-32019, -32000] at all".
      expect(
        findings.map((c) => `${c.status} ${c.id}`),
        explain(run.report),
      ).toEqual(['warn err.legacy.should-not-use', 'warn tools.listchanged.notify']);
      expect(findings[0]!.message).toMatch(/-32000/);
      expect(findings[1]!.message).toMatch(/added beta_forecast.*no notifications\/tools\/list_changed arrived/);
      expect(passed('http.origin.validate')).toBe('pass');
      expect(passed('http.origin.403')).toBe('pass');
      for (const id of ['version.unsupported-32022', 'http.validate.missing-std', 'tools.err.unknown-tool']) {
        expect(passed(id), id).toBe('pass');
      }
      // It also answers an initialize for 2025-11-25, and the 405/session recommendations are for servers that support
      // only 2026-07-28 (basic/transports/streamable-http § Backward Compatibility).
      expect(passed('http.compat.get-delete-405')).toBe('skip');
      expect(run.report!.stats.toolsCalled).not.toHaveProperty('write_note');
      expect(run.code).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it(
    'gets the same verdicts with its calls spread over the default pool as over one connection (--http-connections 1)',
    { timeout: 60_000 },
    async () => {
      const server = await startHttpServer(join(ROOT, 'test/fixtures/sdk-v2-http-server.mjs'));
      try {
        const [one, spread] = [
          await runCli(['--url', server.url, '--http-connections', '1'], { timeoutMs: 45_000 }),
          await runCli(['--url', server.url], { timeoutMs: 45_000 }),
        ];
        const verdicts = (run: typeof one) =>
          run.report!.checks.map((c) => `${c.status} ${c.id}${c.tool ? ` [${c.tool}]` : ''}`);
        expect(verdicts(spread)).toEqual(verdicts(one));
        expect(one.report!.options.httpConnections).toBeUndefined();
        expect(spread.report!.options.httpConnections).toBe(4);
        expect(spread.report!.summary.pass).toBeGreaterThan(50);
      } finally {
        await server.stop();
      }
    },
  );
});

const hasPythonSdk = spawnSync('python3', ['-c', 'import mcp.server.mcpserver']).status === 0;
const pythonServer = `python3 ${join(ROOT, 'test/fixtures/python/mcpserver_app.py')} stdio`;
/** Warnings the pydantic-style server earns on every wire it speaks: SHOULDs and descriptive text, none a fail. */
const PYTHON_WARNINGS = {
  // An unknown tool and arguments: null are answered with isError results, not protocol errors.
  unknown: ['warn tools.err.unknown-tool', 'warn tools.err.protocol-errors'],
  // `add` returns an int and `count_slowly` a str: structuredContent {"result": …}, a text block of the bare value.
  mirror: ['warn tools.result.structured-text-mirror', 'warn tools.result.structured-text-mirror'],
  // pydantic's lax mode takes true for an int and "3" for an int.
  lax: ['warn tools.err.execution-errors.property', 'warn tools.err.execution-errors.property'],
};
/**
 * On 2026-07-28 the SDK's ctx.elicit() and session.list_roots() find no back-channel and the call is answered with a
 * -32600 error (confirm_title, count_roots); on the initialize wire roots/list works, and elicitation/create, which
 * this client did not declare, is answered -32601 and so is the call (confirm_title); count_roots then answers, an int
 * without its JSON in a text block like `add`.
 */
const STATELESS_WARNINGS = [
  ...PYTHON_WARNINGS.unknown,
  'warn tools.err.tool-errors-in-result',
  'warn tools.err.tool-errors-in-result',
  ...PYTHON_WARNINGS.mirror,
  ...PYTHON_WARNINGS.lax,
];
const SESSION_WARNINGS = [
  ...PYTHON_WARNINGS.unknown,
  'warn tools.err.tool-errors-in-result',
  ...PYTHON_WARNINGS.mirror,
  'warn tools.result.structured-text-mirror',
  ...PYTHON_WARNINGS.lax,
];

// A server in the style users write with the official Python SDK (`mcp` 2.3.0 from PyPI, MCPServer, pydantic models,
// sync and async tools, ctx.info and ctx.report_progress, ctx.elicit and session.list_roots), every tool read-only so
// that each is called.
describe.skipIf(!BUILT || !hasPythonSdk)(
  'a server built on the official Python SDK (mcp 2.3, stdio)',
  { concurrent: true },
  () => {
    it(
      'on 2026-07-28: no fail; ctx.info() sends nothing for a request that set no log level, so no log message arrives',
      { timeout: 60_000 },
      async () => {
        const run = await runCli(['--stdio', pythonServer]);
        // On a loaded machine the Python runtime's start-up can make the probe's answer late: it still decides the
        // revision.
        expect(run.report!.wire).toEqual({
          protocolVersion: '2026-07-28',
          reason: expect.stringMatching(
            /^server\/discover returned a DiscoverResult($|, \d+ ms after it was sent \(late for)/,
          ),
        });
        expect(
          run
            .report!.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip')
            .map((c) => `${c.status} ${c.id}`),
          explain(run.report),
        ).toEqual(STATELESS_WARNINGS);
        expect(run.code).toBe(0);
        expect(run.report!.depth).toMatchObject({ toolsListed: 7, toolsCalled: 7 });
        expect(run.report!.checks.find((c) => c.id === 'log.capability-declared')).toMatchObject({
          status: 'skip',
          message: 'the server sent no notifications/message in this audit',
        });
        expect(run.report!.checks.find((c) => c.id === 'log.no-level-no-message')?.status).toBe('pass');
        expect(run.report!.stats.toolsCalled.count_slowly).toBeGreaterThan(0);
      },
    );

    it(
      'on 2025-11-25: ctx.info() logs from a server that declares no logging capability, and ctx.elicit() asks ' +
        'a client that declared no elicitation (MUSTs)',
      { timeout: 60_000 },
      async () => {
        const run = await runCli(['--stdio', pythonServer, '--protocol-version', '2025-11-25']);
        expect(run.report!.wire.protocolVersion).toBe('2025-11-25');
        const findings = run
          .report!.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip')
          .map((c) => `${c.status} ${c.id}`);
        expect(
          findings.filter((f) => f.startsWith('fail')),
          explain(run.report),
        ).toEqual(['fail lifecycle.capabilities.negotiated', 'fail log.capability-declared']);
        expect(findings.filter((f) => f.startsWith('warn'))).toEqual(SESSION_WARNINGS);
        expect(run.code).toBe(1);
        const negotiated = run.report!.checks.find((c) => c.id === 'lifecycle.capabilities.negotiated')!;
        expect(negotiated.quote).toBe('Both parties MUST: … Only use capabilities that were successfully negotiated');
        expect(negotiated.message).toMatch(
          /^the server sent elicitation\/create \d+ times, which uses the client's elicitation capability, but the client declared only \{"roots":\{\}\} in initialize$/,
        );
        const declared = run.report!.checks.find((c) => c.id === 'log.capability-declared')!;
        expect(declared.quote).toBe('Servers that emit log message notifications MUST declare the logging capability');
        expect(declared.specUrl).toBe(
          'https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#capabilities',
        );
        expect(declared.message).toMatch(
          /notifications\/message received \(the first at level "info"\), but the capabilities the server declared have no logging \(prompts, resources, tools\)$/,
        );
        expect((declared.evidence[0] as { request: { method: string } }).request.method).toBe('initialize');
      },
    );
  },
);

/** A port nobody listens on now (the kernel's pick, released at once). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** The pydantic-style server over Streamable HTTP (uvicorn), answering once it accepts requests. */
async function startPythonHttp(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn('python3', [join(ROOT, 'test/fixtures/python/mcpserver_app.py'), 'http', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}/mcp`;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  for (const started = Date.now(); ; await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`the Python server exited with ${child.exitCode}: ${stderr}`);
    const answered = await fetch(url).then(
      () => true,
      () => false,
    );
    if (answered) return { url, stop };
    if (Date.now() - started > 30_000) {
      await stop();
      throw new Error(`the Python server did not listen within 30 s: ${stderr}`);
    }
  }
}

// The same server over Streamable HTTP speaks both eras: 2026-07-28 (stateless) and the initialize wire's sessions. The
// stop-34 false alarms of http.pv.missing-reject and http.pv.mismatch were found on this SDK; a fixture mimics it
// (dual-era-http-server.mjs), and this is the SDK itself.
describe.skipIf(!BUILT || !hasPythonSdk)('the same Python SDK server over Streamable HTTP, on every revision', () => {
  it(
    '--revisions all: no fail on 2026-07-28 (the header checks skip with the reason); on the initialize ' +
      'revisions the logging capability, the undeclared elicitation, and the 2025-03-26 batch',
    { timeout: 90_000 },
    async () => {
      const server = await startPythonHttp();
      try {
        const run = await runCli(['--url', server.url, '--revisions', 'all'], { timeoutMs: 80_000 });
        const report = run.report as unknown as RevisionsReport;
        const fails = Object.fromEntries(
          auditedRuns(report).map(({ revision, run: audit }) => [
            revision,
            audit.checks
              .filter((c) => c.status === 'fail' || c.status === 'error')
              .map((c) => c.id)
              .sort(),
          ]),
        );
        expect(fails).toEqual({
          '2026-07-28': [],
          '2025-11-25': ['lifecycle.capabilities.negotiated', 'log.capability-declared'],
          '2025-06-18': ['lifecycle.capabilities.negotiated', 'log.capability-declared'],
          '2025-03-26': ['base.batch.receive', 'log.capability-declared'],
          '2024-11-05': ['log.capability-declared'],
        });
        const statelessChecks = auditedRuns(report).find((r) => r.revision === '2026-07-28')!.run.checks;
        expect(statelessChecks.filter((c) => c.status === 'warn').map((c) => `warn ${c.id}`)).toEqual(
          STATELESS_WARNINGS,
        );
        // Before 2025-06-18 the same sentence reads SHOULD: an elicitation/create the client did not declare is a
        // warning there.
        for (const revision of ['2025-03-26', '2024-11-05']) {
          expect(
            auditedRuns(report)
              .find((r) => r.revision === revision)!
              .run.checks.find((c) => c.id === 'lifecycle.capabilities.negotiated')?.status,
            revision,
          ).toBe('warn');
        }
        expect(statelessChecks.find((c) => c.id === 'http.pv.missing-reject')).toMatchObject({
          status: 'skip',
          message: expect.stringMatching(/not judged: the server supports 2025-03-26 clients/),
        });
        expect(statelessChecks.find((c) => c.id === 'http.pv.mismatch')).toMatchObject({
          status: 'skip',
          message: expect.stringMatching(/not judged: the server also speaks 2025-11-25/),
        });
        expect(run.code).toBe(1);
      } finally {
        await server.stop();
      }
    },
  );
});
