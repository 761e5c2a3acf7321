import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../src/model/check.js';
import { BUILT, ROOT, runCli, type CliRun } from './helpers/cli.js';
import { aliveAfter } from './helpers/processes.js';
import { sharedPath } from './helpers/shared.js';
import Ajv04 from 'ajv-draft-04';

const SARIF_SCHEMA = sharedPath('formats/sarif-schema-2.1.0.json');
const JUNIT_XSD = sharedPath('formats/junit-10.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;

const driver = (name: string) => `${process.execPath} ${join(ROOT, 'examples/clients', name, 'driver.mjs')}`;
const misbehaving = (mode: string) =>
  `${process.execPath} ${join(ROOT, 'test/fixtures/clients/misbehaving.mjs')} ${mode}`;
const statuses = (checks: readonly CheckResult[]) => Object.fromEntries(checks.map((c) => [c.id, c.status]));
const fixtureClient = (name: string) => `${process.execPath} ${join(ROOT, 'test/fixtures/clients', `${name}.mjs`)}`;
const findings = (checks: readonly CheckResult[]) =>
  checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}: ${c.status}`);

// The tests of each group run concurrently: most of their time is the clients' and the scripted server's waiting.
/**
 * The SDK v1 client over HTTP with every report format, audited once for this file: its verdicts are tested in 'client
 * mode against real SDK clients' and its report files in 'client mode reports' (the reporters write what the audit
 * found; they change nothing of it).
 */
let sdkV1Run: Promise<CliRun> | undefined;
const sdkV1OverHttp = (): Promise<CliRun> =>
  (sdkV1Run ??= runCli(['client', '--command', driver('sdk-v1'), '--reporter', 'json,junit,sarif,html,markdown']));

describe.skipIf(!BUILT)('client mode against real SDK clients', { concurrent: true }, () => {
  it('SDK v2 client over HTTP: every x-mcp-header, MRTR, pagination, $ref and result check passes; it resumes a stream cut short', async () => {
    const run = await runCli(['client', '--command', driver('sdk-v2')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = run.report!;
    expect(report.client).toMatchObject({
      name: 'mcp-tools-conformance-driver-sdk-v2',
      exit: { kind: 'exited', code: 0 },
    });
    expect(report.target).toMatchObject({ transport: 'http', command: driver('sdk-v2') });
    // The rules of the initialize wire do not exist on 2026-07-28 (skipped, saying so). Of the others only the stdio
    // rules, the notification rules (the SDK sends none over HTTP: it cancels slow_answer by closing its stream), the
    // progress-token rules (the driver asks for no progress), the trace-context rule (it sends no traceparent) and the
    // TTL rules (it listens, so its listing was fresh) are skipped. The SDK's 2025-era reconnection resumes the stream
    // of sse_cut_short with GET and Last-Event-ID (the page says streams are not resumable: descriptive, a warning),
    // then waits for the lost answer until the driver's call timeout.
    const notOnThisWire = report.checks
      .filter((c) => c.message.startsWith('the requirement does not exist on the 2026-07-28 wire'))
      .map((c) => c.id);
    expect(notOnThisWire.sort()).toEqual([
      'base.req.id-never-reused',
      'base.response.same-id',
      'cancel.client.own-requests',
      'http.pv.after-initialize',
      'http.session.echo',
      'http.session.new-after-404',
      'jsonrpc.client.no-batch',
      'lifecycle.client.initialize-first',
      'lifecycle.client.initialized',
    ]);
    const byId = statuses(report.checks.filter((c) => !notOnThisWire.includes(c.id)));
    expect(
      Object.entries(byId)
        .filter(([, s]) => s !== 'pass')
        .sort(),
    ).toEqual([
      ['base.notif.no-id', 'skip'],
      ['cache.client.ttl-zero', 'skip'],
      ['cache.page.refetch-page', 'skip'],
      ['cancel.ref-valid', 'skip'],
      ['http.sse.no-resume', 'warn'],
      ['meta.otel.format', 'skip'],
      ['progress.token-type', 'skip'],
      ['progress.token-unique', 'skip'],
      ['stdio.client.no-responses', 'skip'],
      ['stdio.client.stderr-not-error', 'skip'],
      ['stdio.client.stdin-clean', 'skip'],
      ['version.matrix.stdio-discover-first', 'skip'],
    ]);
    expect(report.checks.find((c) => c.id === 'http.sse.no-resume')!.message).toMatch(
      /^1 of \d+ HTTP requests carry Last-Event-ID \(first: GET with "sse_cut_short-0", an id of the stream cut short/,
    );
    expect(report.client!.driverLines).toBe(24);
    // It refuses ref_network (its outputSchema names an unreachable $ref) and dialect_unknown (its outputSchema
    // declares a dialect no one supports) on its own: listed to it, never sent.
    expect(report.client!.notCalled).toEqual(['ref_network', 'dialect_unknown']);
    // It retried both MRTR tools (three rounds of mrtr_ask) and walked all three pages.
    expect(report.stats.toolsCalled).toMatchObject({ mrtr_ask: 3, mrtr_state_only: 2, page_three: 1 });
    expect(report.stats.toolsCalled.header_invalid_space).toBeUndefined();
  });

  it('SDK v2 client over stdio: it probes with server/discover on a process of its own; the stdio rules pass', async () => {
    const run = await runCli(['client', '--transport', 'stdio', '--command', driver('sdk-v2')]);
    expect(run.code).toBe(0);
    const byId = statuses(run.report!.checks);
    expect(byId).toMatchObject({
      'stdio.client.stdin-clean': 'pass',
      'stdio.client.no-responses': 'pass',
      'stdio.client.stderr-not-error': 'pass',
      'version.matrix.stdio-discover-first': 'pass',
      'tools.call.retry-new-id': 'pass',
      'mrtr.client.echo-requeststate': 'pass',
      'page.client.empty-cursor': 'pass',
    });
    expect(run.report!.checks.filter((c) => c.status === 'fail' || c.status === 'warn')).toEqual([]);
    // On stdio the x-mcp-header rules do not bind: the SDK keeps (and calls) the tools with invalid annotations, as it
    // MAY.
    expect(run.report!.stats.toolsCalled.header_invalid_space).toBe(1);
    expect(byId['xmcp.client.exclude']).toBe('skip');
  });

  it('SDK v1 client over HTTP: judged on the 2025-11-25 it offered; it starts no new session after a 404, and validates structuredContent only for the last page', async () => {
    const run = await sdkV1OverHttp();
    expect(run.code).toBe(1);
    const report = run.report!;
    expect(report.wire).toEqual({
      protocolVersion: '2025-11-25',
      reason: 'client mode: the client opened with initialize; it offered 2025-11-25',
    });
    expect(report.aborted).toBeUndefined();
    expect(report.client).toMatchObject({
      name: 'mcp-tools-conformance-driver-sdk-v1',
      version: '1.32.2',
      exit: { kind: 'exited', code: 0 },
    });
    expect(findings(report.checks)).toEqual(['tools.output.client-validate: warn', 'http.session.new-after-404: fail']);
    const renewed = report.checks.find((c) => c.id === 'http.session.new-after-404')!;
    expect(renewed.quote).toBe(
      'When a client receives HTTP 404 in response to a request containing an MCP-Session-Id, it MUST start a ' +
        'new session by sending a new InitializeRequest without a session ID attached.',
    );
    expect(renewed.message).toMatch(/^after the 404 of message #\d+ the client sent no new initialize/);
    expect(statuses(report.checks)).toMatchObject({
      'lifecycle.client.initialize-first': 'pass',
      'lifecycle.client.initialized': 'pass',
      'http.session.echo': 'pass',
      'http.pv.after-initialize': 'pass',
      'base.response.same-id': 'pass',
      'page.client.opaque': 'pass',
      'jsonrpc.client.no-batch': 'pass',
    });
    // Every 2026-07-28-only rule is a skip that names the wire, never a fail.
    expect(report.checks.find((c) => c.id === 'mrtr.client.echo-requeststate')).toMatchObject({
      status: 'skip',
      message: expect.stringMatching(/^the requirement does not exist on the 2025-11-25 wire/),
    });
    expect(report.stats.toolsCalled).toEqual({
      echo: 1,
      sse_echo: 1,
      ask_client: 1,
      structured_mismatch: 1,
      page_two: 1,
      page_three: 1,
    });
  });

  it.each(['http', 'stdio'] as const)(
    'SDK v2 client in its legacy mode (MCP_CONFORMANCE_PROTOCOL_VERSION=2025-11-25) over %s: judged on ' +
      '2025-11-25; over HTTP it starts no new session after a 404',
    async (transport) => {
      const run = await runCli(['client', '--transport', transport, '--command', driver('sdk-v2')], {
        env: { MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-11-25' },
      });
      expect(run.report!.wire.protocolVersion).toBe('2025-11-25');
      expect(findings(run.report!.checks)).toEqual(transport === 'http' ? ['http.session.new-after-404: fail'] : []);
      expect(run.code).toBe(transport === 'http' ? 1 : 0);
      expect(statuses(run.report!.checks)).toMatchObject({
        'lifecycle.client.initialized': 'pass',
        'base.response.same-id': 'pass',
        'tools.output.client-validate': 'pass',
        'page.client.both-flows': 'pass',
      });
    },
  );

  it("on 2025-03-26 a batch is the client's right (MAY) and MCP-Protocol-Version does not exist yet: the reference client sending one is judged on that page, no finding", async () => {
    const batchingClient =
      `${process.execPath} ${join(ROOT, 'dist/reference/client/main.js')} --protocol-version ` +
      `2025-03-26 --defect legacy-json-batch`;
    const run = await runCli(['client', '--command', batchingClient]);
    expect(run.report!.wire).toEqual({
      protocolVersion: '2025-03-26',
      reason: 'client mode: the client opened with initialize; it offered 2025-03-26',
    });
    expect(findings(run.report!.checks)).toEqual([]);
    expect(run.code).toBe(0);
    for (const id of ['jsonrpc.client.no-batch', 'http.pv.after-initialize', 'tools.output.client-validate']) {
      expect(
        run.report!.checks.find((c) => c.id === id),
        id,
      ).toMatchObject({
        status: 'skip',
        message: expect.stringMatching(/^the requirement does not exist on the 2025-03-26 wire/),
      });
    }
    expect(statuses(run.report!.checks)).toMatchObject({
      'http.session.echo': 'pass',
      'http.session.new-after-404': 'pass',
      'lifecycle.client.initialized': 'pass',
      'base.response.same-id': 'pass',
    });
  });

  it('SDK v1 client over stdio: judged on 2025-11-25; only the structuredContent validation of an earlier page warns', async () => {
    const run = await runCli(['client', '--transport', 'stdio', '--command', driver('sdk-v1')]);
    expect(run.code).toBe(0);
    expect(run.report!.wire.protocolVersion).toBe('2025-11-25');
    expect(findings(run.report!.checks)).toEqual(['tools.output.client-validate: warn']);
    expect(statuses(run.report!.checks)).toMatchObject({
      'stdio.client.stdin-clean': 'pass',
      'lifecycle.client.initialized': 'pass',
      'base.response.same-id': 'pass',
      'page.client.both-flows': 'pass',
    });
  });
});

describe.skipIf(!BUILT)(
  'client mode: clients written the way that once drew false MUST verdicts',
  { concurrent: true },
  () => {
    it('a client that Base64-encodes every header value (SDK v2, custom fetch): its headers decode to the body values, so at most a warning', async () => {
      const run = await runCli([
        'client',
        '--command',
        fixtureClient('over-encoding'),
        '--scenario',
        'x-mcp-header',
        '--reporter',
        'json,console',
      ]);
      expect(findings(run.report!.checks)).toEqual(['xmcp.client.mirror: warn', 'enc.type-conversion: warn']);
      expect(run.code).toBe(0);
      const mirror = run.report!.checks.find((c) => c.id === 'xmcp.client.mirror')!;
      expect(mirror).toMatchObject({ keywordText: 'descriptive', specRef: 'server/tools#x-mcp-header' });
      expect(mirror.quote).toContain('the client adds the header Mcp-Param-Region: us-west1');
      expect(mirror.message).toContain(
        'Mcp-Param-Region "=?base64?dXMtd2VzdDE=?=" for "us-west1", which decodes to "us-west1"',
      );
      expect(run.report!.checks.find((c) => c.id === 'enc.type-conversion')!.message).toContain(
        'Mcp-Param-Verbose "=?base64?dHJ1ZQ==?=" for true, which decodes to "true"',
      );
      // The values that need Base64 (and the sentinel look-alike) were encoded as the page says.
      expect(statuses(run.report!.checks)).toMatchObject({
        'enc.client.base64': 'pass',
        'enc.client.sentinel-collision': 'pass',
        'xmcp.client.omit-null': 'pass',
      });
    });

    it('a client that re-lists and retries after any failed call (SDK v2): -32001 and the control -32003 are treated alike, so no fail', async () => {
      const run = await runCli(['client', '--command', fixtureClient('refresh-on-error'), '--scenario', 'results']);
      expect(findings(run.report!.checks)).toEqual([]);
      expect(run.code).toBe(0);
      const noMeaning = run.report!.checks.find((c) => c.id === 'err.legacy.no-meaning')!;
      expect(noMeaning.status).toBe('pass');
      expect(noMeaning.message).toMatch(
        /^after -32001 to tools\/call legacy_error_code .*, the client listed the tools again and retried .*, and did the same after -32003 to tools\/call control_error_code/,
      );
      expect(run.report!.stats.toolsCalled).toMatchObject({ legacy_error_code: 2, control_error_code: 2 });
    });

    it('a hand-written client that lists one page and leaves out x-mcp-header tools: one warning names the unlisted tools, the report the uncalled ones', async () => {
      const run = await runCli([
        'client',
        '--command',
        fixtureClient('first-page-only'),
        '--scenario',
        'meta,pagination,x-mcp-header',
        '--reporter',
        'json,console',
      ]);
      expect(findings(run.report!.checks)).toEqual(['page.client.both-flows: warn']);
      expect(run.code).toBe(0);
      const flows = run.report!.checks.find((c) => c.id === 'page.client.both-flows')!;
      expect(flows.message).toMatch(/the client never asked for the next page, so it never got page_two, page_three$/);
      expect(flows.quote).toBe('Clients SHOULD: … Support both paginated and non-paginated flows');
      expect(run.report!.checks.filter((c) => c.message.includes('page_two'))).toHaveLength(1);
      // The valid x-mcp-header tools it received and never called are named once, in the report's client section.
      expect(run.report!.client!.notCalled).toEqual([
        'header_plain',
        'header_encoded',
        'header_sentinel',
        'header_null',
        'header_mismatch_once',
      ]);
      expect(run.stdout).toContain(
        'Not called: header_plain, header_encoded, header_sentinel, header_null, header_mismatch_once (listed ' +
          'to the client',
      );
    });
  },
);

// One at a time: these run clients to their time bounds, which a concurrent neighbour's load can make them miss.
describe.skipIf(!BUILT)('client mode: a client that cannot be audited ends the run with exit 3 and the reason', () => {
  it('a client that hangs is killed at --max-duration with everything it started', async () => {
    const pidsFile = join(mkdtempSync(join(tmpdir(), 'mtc-hang-')), 'pids.json');
    const started = performance.now();
    // The budget leaves a loaded CI machine time to start the client's node process and its first POST (1.5 s once did
    // not).
    const run = await runCli(['client', '--command', misbehaving('hang'), '--max-duration', '4000'], {
      env: { PIDS_FILE: pidsFile },
    });
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(run.code).toBe(3);
    expect(run.report!.aborted!.reason).toMatch(/did not exit before the --max-duration budget ran out and was killed/);
    expect(run.report!.client!.exit.kind).toBe('timed-out');
    // What it did send before hanging was still judged.
    expect(statuses(run.report!.checks)['tools.req.meta-required']).toBe('pass');
    const pids = JSON.parse(readFileSync(pidsFile, 'utf8')) as number[];
    expect(await aliveAfter(pids)).toEqual([]);
  });

  it('over stdio, a hanging client is killed together with the scripted server it started', async () => {
    const pidsFile = join(mkdtempSync(join(tmpdir(), 'mtc-hang-')), 'pids.json');
    // Before its first message can count, the client must also start the scripted server (a node process of this tool).
    const run = await runCli(
      ['client', '--transport', 'stdio', '--command', misbehaving('hang'), '--max-duration', '4000'],
      { env: { PIDS_FILE: pidsFile } },
    );
    expect(run.code).toBe(3);
    expect(run.report!.client!.exit.kind).toBe('timed-out');
    // Its server/discover reached the scripted server before it hung.
    expect(run.report!.client!.messages).toBe(1);
    const pids = JSON.parse(readFileSync(pidsFile, 'utf8')) as number[];
    expect(pids).toHaveLength(2);
    expect(await aliveAfter(pids)).toEqual([]);
  });

  it('a client that crashes: exit 3, the exit code and its stderr in the report', async () => {
    const run = await runCli(['client', '--command', misbehaving('crash')]);
    expect(run.code).toBe(3);
    expect(run.report!.aborted).toMatchObject({
      reason: 'the client could not be audited: the client exited with code 1',
      targetStderr: ['driver: cannot go on, the session broke'],
    });
    expect(run.stderr).toContain('the client exited with code 1');
  });

  it('a client that never connects, and a command that does not exist', async () => {
    const silent = await runCli(['client', '--command', misbehaving('silent')]);
    expect(silent.code).toBe(3);
    expect(silent.report!.aborted!.reason).toMatch(/exited without sending a message/);
    expect(silent.report!.checks.every((c) => c.status === 'skip')).toBe(true);
    const missing = await runCli(['client', '--command', 'definitely-not-a-client-xyz']);
    expect(missing.code).toBe(3);
    expect(missing.report!.aborted!.reason).toMatch(/could not be started: spawn definitely-not-a-client-xyz ENOENT/);
  });

  // About 8 s on an idle machine; the bound catches a run that does not end, with room for a loaded CI machine.
  it(
    'a client that floods the server and its stdout: the run ends, the findings name it, what is kept is bounded',
    { timeout: 130_000 },
    async () => {
      const started = performance.now();
      const run = await runCli(['client', '--command', misbehaving('flood')], { timeoutMs: 120_000 });
      expect(performance.now() - started).toBeLessThan(110_000);
      expect(run.code).toBe(1);
      const report = run.report!;
      // Every one of its requests lacked _meta; the evidence shows the first few, the count says how many were kept.
      const meta = report.checks.find((c) => c.id === 'tools.req.meta-required')!;
      expect(meta.status).toBe('fail');
      expect(meta.message).toMatch(/^5000 of 5000: /);
      expect(meta.evidence).toHaveLength(5);
      expect(report.client).toMatchObject({ messages: 5000, messagesNotKept: 1001 });
      expect(JSON.stringify(report).length).toBeLessThan(2_000_000);
    },
  );

  it('usage errors are exit 2 on one line', async () => {
    for (const [args, message] of [
      [['client'], /client needs --command/],
      [['client', '--command', 'x', '--scenario', 'nope'], /no scenario matches "nope"/],
      [['client', '--command', 'x', '--url', 'http://127.0.0.1:1/mcp'], /--url names a server to audit/],
      [['--stdio', 'x', '--scenario', 'mrtr'], /--scenario goes with the client command/],
    ] as const) {
      const run = await runCli([...args]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    }
  });
});

describe.skipIf(!BUILT)('client mode reports', { concurrent: true }, () => {
  /** Every report format of a client audit is written, and JUnit and SARIF are valid against their schemas. */
  function expectValidFormats(outputDir: string): void {
    for (const file of ['report.json', 'junit.xml', 'report.sarif', 'report.html', 'summary.md'])
      expect(existsSync(join(outputDir, file))).toBe(true);
    if (existsSync(SARIF_SCHEMA)) {
      const validate = new Ajv04.default({ allErrors: true, strict: false, validateFormats: false }).compile(
        JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')) as object,
      );
      expect(
        validate(JSON.parse(readFileSync(join(outputDir, 'report.sarif'), 'utf8'))),
        JSON.stringify(validate.errors),
      ).toBe(true);
    }
    if (hasXmllint && existsSync(JUNIT_XSD)) {
      expect(() =>
        execFileSync('xmllint', ['--noout', '--schema', JUNIT_XSD, join(outputDir, 'junit.xml')], { stdio: 'pipe' }),
      ).not.toThrow();
    }
  }

  it('every format is written for a client audit on the initialize wire (SDK v1, 2025-11-25, with a fail)', async () => {
    const run = await sdkV1OverHttp();
    expect(run.code).toBe(1);
    expectValidFormats(run.outputDir);
    const sarif = JSON.parse(readFileSync(join(run.outputDir, 'report.sarif'), 'utf8')) as {
      runs: { results: { ruleId: string; level: string }[] }[];
    };
    expect(sarif.runs[0]!.results.filter((r) => r.level === 'error').map((r) => r.ruleId)).toEqual([
      'http.session.new-after-404',
    ]);
    const junit = readFileSync(join(run.outputDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase [^>]*name="[^"]*› http\.session\.new-after-404 ›[^"]*"[^>]*>\s*<failure/);
    expect(junit).toContain('<property name="protocolVersion" value="2025-11-25"/>');
    expect(readFileSync(join(run.outputDir, 'report.html'), 'utf8')).toContain('2025-11-25');
  });

  it('every format is written for a client audit; --scenario narrows the tools and the checks', async () => {
    const run = await runCli([
      'client',
      '--command',
      driver('sdk-v2'),
      '--scenario',
      'mrtr',
      '--reporter',
      'json,junit,sarif,html,markdown',
    ]);
    expect(run.code).toBe(0);
    for (const file of ['report.json', 'junit.xml', 'report.sarif', 'report.html', 'summary.md'])
      expect(existsSync(join(run.outputDir, file))).toBe(true);
    expect(run.report!.client!.scenarios).toEqual(['mrtr']);
    expect(Object.keys(run.report!.stats.toolsCalled).sort()).toEqual(['mrtr_ask', 'mrtr_state_only']);
    expect(run.report!.checks.find((c) => c.id === 'xmcp.client.mirror')).toMatchObject({
      status: 'skip',
      message: 'its scenario "x-mcp-header" was not selected (--scenario)',
    });
    expect(readFileSync(join(run.outputDir, 'junit.xml'), 'utf8')).toContain('tools.call.retry-new-id');
    expect(readFileSync(join(run.outputDir, 'summary.md'), 'utf8')).toMatch(
      /^## MCP tools conformance — client mcp-tools-conformance-driver-sdk-v2 2\.4\.0: /,
    );
    expect(readFileSync(join(run.outputDir, 'report.html'), 'utf8')).toContain('<dt>Client</dt>');
    if (existsSync(SARIF_SCHEMA)) {
      const validate = new Ajv04.default({ allErrors: true, strict: false, validateFormats: false }).compile(
        JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')) as object,
      );
      expect(
        validate(JSON.parse(readFileSync(join(run.outputDir, 'report.sarif'), 'utf8'))),
        JSON.stringify(validate.errors),
      ).toBe(true);
    }
    if (hasXmllint && existsSync(JUNIT_XSD)) {
      expect(() =>
        execFileSync('xmllint', ['--noout', '--schema', JUNIT_XSD, join(run.outputDir, 'junit.xml')], {
          stdio: 'pipe',
        }),
      ).not.toThrow();
    }
  });
});

const hasPython = spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!BUILT || !hasPython)(
  'client mode against a client on another stack (Python standard library)',
  { concurrent: true },
  () => {
    // Over HTTP it ends a call refused with HeaderMismatch (-32020) instead of listing the tools again and retrying:
    // the one SHOULD it misses. Over stdio the rule does not bind.
    it.each([
      ['http', ['xmcp.client.mismatch-refresh: warn']],
      ['stdio', []],
    ] as const)('over %s: no fail; warnings: %j', async (transport, warnings) => {
      const run = await runCli([
        'client',
        '--transport',
        transport,
        '--command',
        `python3 ${join(ROOT, 'examples/clients/python-stdlib/driver.py')}`,
      ]);
      expect(findings(run.report!.checks)).toEqual(warnings);
      expect(run.code).toBe(0);
      expect(run.report!.client).toMatchObject({ name: 'python-stdlib-driver', exit: { kind: 'exited', code: 0 } });
      // HTTP leaves out the six tools with invalid annotations; stdio may keep them.
      expect(run.report!.client!.driverLines).toBe(transport === 'http' ? 24 : 30);
    });

    it.each(['http', 'stdio'] as const)(
      'in its legacy mode (MCP_CONFORMANCE_PROTOCOL_VERSION=2025-11-25, over %s): the same contract, judged on ' +
        '2025-11-25, no fail and no warning',
      async (transport) => {
        const run = await runCli(
          [
            'client',
            '--transport',
            transport,
            '--command',
            `python3 ${join(ROOT, 'examples/clients/python-stdlib/driver.py')}`,
          ],
          { env: { MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-11-25' } },
        );
        expect(run.report!.wire.protocolVersion).toBe('2025-11-25');
        expect(
          run
            .report!.checks.filter((c) => c.status === 'fail' || c.status === 'warn')
            .map((c) => `${c.id}: ${c.message}`),
        ).toEqual([]);
        expect(run.code).toBe(0);
        // It opened with initialize and answered the server's requests mid-call; over HTTP it also started a new
        // session after the 404.
        expect(statuses(run.report!.checks)).toMatchObject({
          'base.response.same-id': 'pass',
          'lifecycle.client.initialize-first': 'pass',
          'lifecycle.client.initialized': 'pass',
        });
        if (transport === 'http')
          expect(statuses(run.report!.checks)).toMatchObject({
            'http.session.new-after-404': 'pass',
            'http.pv.after-initialize': 'pass',
          });
        expect(run.report!.client!.driverLines).toBe(6);
      },
    );
  },
);

const hasPythonSdk = hasPython && spawnSync('python3', ['-c', 'import mcp.client.client']).status === 0;
const pythonSdkDriver = `python3 ${join(ROOT, 'examples/clients/python-sdk/driver.py')}`;

// The official Python SDK's client (`mcp` 2.3.0 from PyPI, installed by .ci/run): its model of a result takes any
// resultType, and it validates structuredContent by jsonschema's default dialect when the declared one is unknown.
describe.skipIf(!BUILT || !hasPythonSdk)(
  'client mode against the official Python SDK client (mcp 2.3)',
  { concurrent: true },
  () => {
    it.each([
      [
        'http',
        [
          'jsonschema.impl.unsupported-dialect: fail',
          'base.resulttype.unknown-invalid: fail',
          'http.sse.no-resume: warn',
        ],
      ],
      ['stdio', ['jsonschema.impl.unsupported-dialect: fail', 'base.resulttype.unknown-invalid: fail']],
    ] as const)(
      'over %s, on 2026-07-28: an unknown resultType reaches the caller as a result, and an unknown dialect is ' +
        'validated all the same (MUSTs)',
      async (transport, expected) => {
        const run = await runCli(['client', '--transport', transport, '--command', pythonSdkDriver]);
        const report = run.report!;
        expect(report.wire.protocolVersion).toBe('2026-07-28');
        expect(report.client).toMatchObject({ name: 'mcp', exit: { kind: 'exited', code: 0 } });
        expect(findings(report.checks)).toEqual(expected);
        expect(run.code).toBe(1);
        const byId = (id: string) => report.checks.find((c) => c.id === id)!;
        expect(byId('base.resulttype.unknown-invalid').quote).toBe(
          'A resultType of any value unrecognized by the client MUST be considered invalid.',
        );
        expect(byId('jsonschema.impl.unsupported-dialect').quote).toBe(
          'They MUST handle unsupported dialects gracefully by returning an appropriate error indicating the ' +
            'dialect is not supported.',
        );
        // It does validate structuredContent: the mismatch was refused, so the dialect finding is not a client that
        // never validates.
        expect(byId('jsonschema.impl.unsupported-dialect').message).toMatch(/it rejected structured_mismatch/);
        expect(statuses(report.checks)).toMatchObject({
          'base.jsonrpc': 'pass',
          'page.client.opaque': 'pass',
          'mrtr.client.echo-requeststate': 'pass',
        });
      },
    );

    it.each(['http', 'stdio'] as const)(
      'in its legacy mode (MCP_CONFORMANCE_PROTOCOL_VERSION=2025-11-25) over %s: judged on 2025-11-25; over ' +
        'HTTP it starts no new session after a 404',
      async (transport) => {
        const run = await runCli(['client', '--transport', transport, '--command', pythonSdkDriver], {
          env: { MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-11-25' },
        });
        expect(run.report!.wire).toEqual({
          protocolVersion: '2025-11-25',
          reason: 'client mode: the client opened with initialize; it offered 2025-11-25',
        });
        expect(findings(run.report!.checks)).toEqual(transport === 'http' ? ['http.session.new-after-404: fail'] : []);
        expect(run.code).toBe(transport === 'http' ? 1 : 0);
        expect(run.report!.client).toMatchObject({ exit: { kind: 'exited', code: 0 } });
        expect(statuses(run.report!.checks)).toMatchObject({
          'lifecycle.client.initialize-first': 'pass',
          'lifecycle.client.initialized': 'pass',
          'base.response.same-id': 'pass',
        });
      },
    );
  },
);
