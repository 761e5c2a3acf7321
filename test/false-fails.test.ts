import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../src/model/check.js';
import { BUILT, ROOT, explain, runCli, startHttpServer } from './helpers/cli.js';

/*
 * Servers and clients written the way users write them, each meeting a sentence that a check once failed them under
 * (issue 40, item 1). Each audit is narrowed to the checks concerned; the defects that these checks must still catch
 * are in test/defects.test.ts and test/client-defects.test.ts, and the true breaches of the same fixtures are below.
 */
const findings = (checks: readonly CheckResult[]) =>
  checks
    .filter((c) => c.status === 'fail' || c.status === 'warn')
    .map((c) => `${c.status} ${c.id}${c.tool ? ` ${c.tool}` : ''}`);
const byId = (checks: readonly CheckResult[]) => (id: string) => checks.find((c) => c.id === id)!;

describe.skipIf(!BUILT)('a client that opens two sessions at once (SDK v1)', () => {
  it(
    'sends notifications/initialized in each session, judged per Mcp-Session-Id, not by arrival order',
    { timeout: 30_000 },
    async () => {
      const run = await runCli([
        'client',
        '--command',
        `${process.execPath} ${join(ROOT, 'test/fixtures/clients/two-sessions.mjs')}`,
        '--scenario',
        'meta',
      ]);
      const check = byId(run.report!.checks);
      expect(check('lifecycle.client.initialized'), explain(run.report)).toMatchObject({
        status: 'pass',
        message: 'each of 2 successful initialize(s) was followed by notifications/initialized',
      });
      expect(check('lifecycle.client.initialize-first')).toMatchObject({
        status: 'pass',
        message: expect.stringMatching(/^each of 2 conversation\(s\) began with initialize/),
      });
      expect(check('http.session.echo').status).toBe('pass');
      expect(findings(run.report!.checks)).toEqual([]);
      expect(run.code).toBe(0);
    },
  );
});

describe.skipIf(!BUILT)(
  'a 2026-07-28 server that validates the headers before it reads the body (raw JSON-RPC over HTTP)',
  () => {
    const CHECKS = [
      'http.pv.mismatch',
      'http.pv.missing-reject',
      'http.validate.missing-std',
      'meta.req.missing-32602',
      'base.id.same',
      'http.sse.related',
      'tools.err.tool-errors-in-result',
    ];

    it(
      "-32022 for a header version it does not implement, -32020 for a body without the header's version, id " +
        'null before the body is read, and a list_changed on the stream of the call that changed the list: no ' +
        'fail',
      { timeout: 60_000 },
      async () => {
        const server = await startHttpServer(join(ROOT, 'test/fixtures/header-first-http-server.mjs'));
        try {
          const run = await runCli([
            '--url',
            server.url,
            '--checks',
            CHECKS.join(','),
            '--allow-tools',
            'toggle_reports',
          ]);
          const checks = run.report!.checks;
          const check = byId(checks);
          expect(checks.map((c) => `${c.status} ${c.id}`).sort(), explain(run.report)).toEqual(
            CHECKS.map((id) => `pass ${id}`).sort(),
          );
          // Two MUSTs of the same section meet in the probe (header 2025-11-25, body 2026-07-28): either answer keeps
          // one.
          expect(check('http.pv.mismatch').message).toMatch(
            /^tools\/list with header 2025-11-25 and body 2026-07-28: HTTP 400 with error -32022 \(the header names 2025-11-25, and "If the server does not implement the requested protocol version/,
          );
          expect(check('meta.req.missing-32602').message).toBe(
            'all 4 malformed requests were rejected: -32020 for no params at all, params without _meta, _meta ' +
              'without protocolVersion (the body lacks the version its MCP-Protocol-Version header names, a ' +
              'HeaderMismatch too), -32602 for the rest',
          );
          // The refusals of a missing MCP-Protocol-Version, Mcp-Method and Mcp-Name carry id null, as the -32022 does.
          expect(check('http.validate.missing-std').message).toMatch(
            /tools\/list without Mcp-Method: HTTP 400 with error -32020; .* without Mcp-Name: HTTP 400 with error -32020/,
          );
          expect(check('base.id.same').message).toMatch(/^\d+ responses of the audit each carry their request's id/);
          // toggle_reports was called, and its stream carried the list_changed.
          expect(run.report!.stats.toolsCalled.toggle_reports).toBeGreaterThan(0);
          expect(check('http.sse.related').message).toBe('1 response stream(s) carried only related notifications');
          expect(run.code).toBe(0);
        } finally {
          await server.stop();
        }
      },
    );
  },
);

describe.skipIf(!BUILT)(
  'schemas written as draft-07 without $schema (SDK v1 low-level Server): a maximum beside a $ref',
  () => {
    const FIXTURE = `${process.execPath} ${join(ROOT, 'test/fixtures/draft07-schemas-server.mjs')}`;
    const audit = (revision: string, ...flags: string[]) =>
      runCli([
        '--stdio',
        [FIXTURE, ...flags].join(' '),
        '--protocol-version',
        revision,
        '--checks',
        'tools.output.conform*,tools.err.execution-errors*',
        '--runs',
        '20',
      ]);

    it(
      'on 2025-06-18, which names no default dialect: the output warns with both readings, and 11 is no ' +
        'evidence of unvalidated input',
      { timeout: 30_000 },
      async () => {
        const run = await audit('2025-06-18');
        expect(run.report!.wire.protocolVersion).toBe('2025-06-18');
        expect(findings(run.report!.checks), explain(run.report)).toEqual(['warn tools.output.conform get_load']);
        const conform = byId(run.report!.checks)('tools.output.conform');
        expect(conform).toMatchObject({
          keywordText: 'descriptive',
          quote: 'outputSchema: Optional JSON Schema defining expected output structure',
          specRef: 'server/tools#tool',
        });
        expect(conform.message).toBe(
          'whether structuredContent conforms to the outputSchema hinges on the JSON Schema dialect: it ' +
            'conforms read as draft-07, and not read as 2020-12 (/load must be <= 100) or 2019-09 (/load must be ' +
            '<= 100). Not a failure: the outputSchema declares no $schema, and 2025-06-18 names no default ' +
            "dialect, so each reading is the schema's",
        );
        // What every reading refuses is still probed, and refused.
        expect(
          run
            .report!.checks.filter((c) => c.id.startsWith('tools.err.execution-errors') && c.status === 'pass')
            .map((c) => c.message),
        ).toEqual([
          expect.stringMatching(/^2 invalid-argument call\(s\) were refused/),
          expect.stringMatching(/^20 generated case\(s\) over 1 tool\(s\) were refused/),
        ]);
        expect(run.code).toBe(0);
      },
    );

    it(
      'the true breaches still fail: on 2025-11-25, whose default dialect is 2020-12, and on 2025-06-18 a ' +
        'value no reading allows',
      { timeout: 30_000 },
      async () => {
        const [latestInitialize, breach] = await Promise.all([audit('2025-11-25'), audit('2025-06-18', '--breach')]);
        expect(findings(latestInitialize.report!.checks), explain(latestInitialize.report)).toEqual([
          'fail tools.output.conform get_load',
          'fail tools.err.execution-errors.property set_retries',
        ]);
        expect(byId(latestInitialize.report!.checks)('tools.output.conform').message).toBe(
          'structuredContent breaks the outputSchema: /load must be <= 100',
        );
        expect(
          latestInitialize.report!.checks.find(
            (c) => c.id === 'tools.err.execution-errors.property' && c.status === 'fail',
          )!.message,
        ).toMatch(/^"count" set to 11, above its maximum: the call succeeded/);
        expect(findings(breach.report!.checks), explain(breach.report)).toEqual(['fail tools.output.conform get_load']);
        expect(byId(breach.report!.checks)('tools.output.conform').message).toBe(
          'structuredContent breaks the outputSchema: /load must be number',
        );
      },
    );
  },
);

describe.skipIf(!BUILT)('a stdio server that holds its client to the lifecycle (raw JSON-RPC, 2025-11-25)', () => {
  it(
    'is never sent a cancellation of initialize, so it has nothing to answer: base.notif.no-response passes',
    { timeout: 30_000 },
    async () => {
      const run = await runCli([
        '--stdio',
        `${process.execPath} ${join(ROOT, 'test/fixtures/strict-initialize-server.mjs')}`,
        '--protocol-version',
        '2025-11-25',
        '--checks',
        'base.notif.no-response,tools.list.respond',
      ]);
      const check = byId(run.report!.checks)('base.notif.no-response');
      expect(check.status, explain(run.report)).toBe('pass');
      expect(check.message).toMatch(
        /^3 notifications\/cancelled the server could only ignore \(a request already answered, an id never sent, no requestId\)/,
      );
      // The request already answered is another than initialize: the fixture answers a cancellation of its initialize
      // with an error, which would be a response to a notification.
      const cancelled = check.evidence.map(
        (e) => (e as { request: { params: { requestId?: unknown } } }).request.params.requestId,
      );
      expect(cancelled).toEqual([expect.any(Number), 'mcp-tools-conformance-never-sent', undefined]);
      expect(run.code).toBe(0);
    },
  );
});
