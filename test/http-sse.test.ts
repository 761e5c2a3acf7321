import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT, explain, ROOT, runCli, startHttpServer, type HttpServer } from './helpers/cli.js';

/**
 * The SDK v1 McpServer over its deprecated SSEServerTransport (2024-11-05's HTTP with SSE), as servers in use run it.
 */
const SSE_FIXTURE = join(ROOT, 'test/fixtures/sdk-v1-sse-server.mjs');
/** The same McpServer and tools over stdio. */
const STDIO_FIXTURE = join(ROOT, 'test/fixtures/sdk-v1-server.mjs');
const STREAMABLE_ONLY =
  'needs the Streamable HTTP transport (this target speaks the deprecated HTTP+SSE transport of 2024-11-05)';

const running: (HttpServer | Server)[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    if ('stop' in server) {
      await server.stop();
    } else {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  }
});

async function sseFixture(...args: string[]): Promise<string> {
  const server = await startHttpServer(SSE_FIXTURE, ...args);
  running.push(server);
  return server.url;
}

/** A hand-written target: every request goes to `handle`; returns its URL. */
async function target(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handle);
  running.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`;
}

/** POSTs are 404; a GET opens an event stream and `stream` writes what it will. */
const refusesPosts = (stream: (res: ServerResponse) => void) =>
  target((req, res) => {
    if (req.method !== 'GET') return void res.writeHead(404).end('Not found');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    stream(res);
  });

const statuses = (checks: { id: string; tool?: string; status: string }[]) =>
  Object.fromEntries(checks.map((c) => [`${c.id}${c.tool ? ` [${c.tool}]` : ''}`, c.status]));

describe.skipIf(!BUILT)('the deprecated HTTP+SSE transport of 2024-11-05 behind --url', () => {
  it('an SDK v1 SSEServerTransport server: found after the refused POSTs, audited on the 2024-11-05 it offers, named in report.json and on the console', async () => {
    const url = await sseFixture();
    const run = await runCli(['--url', url, '--reporter', 'console,json']);
    const report = run.report!;
    expect(report.target).toEqual({ transport: 'http+sse', url });
    expect(report.wire.protocolVersion).toBe('2024-11-05');
    expect(report.wire.reason).toMatch(
      /^server\/discover probe: .*HTTP 404.*; fell back to initialize: the initialize POST was answered HTTP 404, and a GET opened an event stream whose first event, endpoint, named \/messages\?sessionId=\[redacted\]: the deprecated HTTP\+SSE transport of 2024-11-05; initialize agreed protocol version 2024-11-05$/,
    );
    expect(report.server).toEqual({ name: 'sdk-v1-sse-fixture', version: '1.0.0' });
    // Its POSTs went over one connection (the HTTP+SSE default), not the --concurrency that Streamable HTTP would pool.
    expect(report.options.httpConnections).toBeUndefined();
    expect(run.stdout).toContain('\nWire: 2024-11-05 (');
    expect(run.stdout).toContain(
      '\nTransport: HTTP+SSE (2024-11-05, deprecated): the URL refused the initialize POST, and its GET stream ' +
        'named an endpoint; Streamable HTTP checks do not apply\n',
    );
    expect(
      report.checks.filter((c) => c.status === 'fail' || c.status === 'error'),
      explain(report),
    ).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('every check runs over it as over stdio, but those of Streamable HTTP (or stdio): the same verdicts as the same server over stdio', async () => {
    const url = await sseFixture();
    const [sse, stdio] = await Promise.all([
      runCli(['--url', url, '--protocol-version', '2025-11-25', '--http-connections', '3']),
      runCli(['--stdio', `${process.execPath} ${STDIO_FIXTURE}`, '--protocol-version', '2025-11-25']),
    ]);
    expect(sse.report!.wire.reason).toMatch(
      /^--protocol-version 2025-11-25 offered; the initialize POST was answered HTTP 404, and a GET opened an event stream .*; initialize agreed protocol version 2025-11-25$/,
    );
    const viaSse = statuses(sse.report!.checks);
    const viaStdio = statuses(stdio.report!.checks);
    const streamableOnly = sse.report!.checks.filter((c) => c.message === STREAMABLE_ONLY).map((c) => c.id);
    const stdioOnly = sse
      .report!.checks.filter((c) => c.message === 'needs the stdio transport (--stdio)')
      .map((c) => c.id);
    expect(streamableOnly).toContain('http.origin.validate');
    for (const id of [...streamableOnly, ...stdioOnly]) delete viaStdio[id];
    for (const id of [...streamableOnly, ...stdioOnly]) delete viaSse[id];
    expect(viaSse).toEqual(viaStdio);
    expect(Object.values(viaSse).filter((s) => s === 'pass').length).toBeGreaterThan(10);
    expect(sse.report!.stats.toolsCalled).toEqual(stdio.report!.stats.toolsCalled);
    expect(sse.report!.options.httpConnections).toBe(3);
  });

  it('a POST answered 405 (a router that knows the URL for GET only) is the same sign as 404', async () => {
    const run = await runCli(['--url', await sseFixture('--method-not-allowed'), '--checks', 'schema.result.valid']);
    expect(run.report!.target.transport).toBe('http+sse');
    expect(run.report!.wire.reason).toContain(
      'the initialize POST was answered HTTP 405, and a GET opened an event stream',
    );
    expect(run.code).toBe(0);
  });

  it('a URL that answers 404 to the POSTs and to the GET: exit 3, saying what each found', async () => {
    const url = await target((_req, res) => res.writeHead(404).end('Not found'));
    const run = await runCli(['--url', url]);
    expect(run.code).toBe(3);
    expect(run.report!.target.transport).toBe('http');
    expect(run.report!.aborted!.reason).toBe(
      'the target could not be audited: server/discover probe: server/discover got no usable answer (HTTP 404 ' +
        'with non-JSON body); initialize: HTTP 404 with non-JSON body; the initialize POST was answered HTTP ' +
        '404, and no HTTP+SSE transport was found there either: a GET to the URL answered HTTP 404, not an event ' +
        'stream (body: "Not found")',
    );
    expect(run.stderr.split('\n')[0]).toBe(`mcp-tools-conformance: ${run.report!.aborted!.reason}`);
  });

  it('an event stream that never names its endpoint: exit 3 within the timeout, with the flag that bounds the wait', async () => {
    const url = await refusesPosts((res) => res.write(': still here\n\n'));
    const run = await runCli(['--url', url, '--timeout', '1000']);
    expect(run.code).toBe(3);
    expect(run.report!.aborted!.reason).toMatch(
      /no HTTP\+SSE transport was found there either: no endpoint event arrived on the GET stream within 1000 ms \(--timeout\)$/,
    );
    expect(run.wallMs).toBeLessThan(8000);
  });

  it('an event stream that floods before its endpoint: exit 3 once --max-message-bytes is passed, not at the timeout', async () => {
    const url = await refusesPosts((res) => {
      const chunk = `: ${'x'.repeat(64 * 1024)}\n`;
      const flood = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', flood);
      };
      flood();
    });
    const run = await runCli(['--url', url, '--timeout', '30000', '--max-message-bytes', '1048576']);
    expect(run.code).toBe(3);
    expect(run.report!.aborted!.reason).toMatch(
      /the GET stream sent \d+ bytes without an endpoint event \(--max-message-bytes 1048576\)$/,
    );
    expect(run.wallMs).toBeLessThan(15_000);
  });

  it('an endpoint on another origin is not followed: exit 3, and nothing reaches that origin', async () => {
    let reached = 0;
    const elsewhere = await target((_req, res) => {
      reached += 1;
      res.writeHead(202).end();
    });
    const otherOrigin = new URL(elsewhere).origin;
    const url = await refusesPosts((res) =>
      res.write(`event: endpoint\ndata: ${otherOrigin}/messages?sessionId=1\n\n`),
    );
    const run = await runCli(['--url', url]);
    expect(run.code).toBe(3);
    expect(run.report!.aborted!.reason).toContain(
      `no HTTP+SSE transport was found there either: the endpoint event names a URL on ${otherOrigin}, another ` +
        `origin than the target's ${new URL(url).origin}: not followed, since this tool only talks to the target`,
    );
    expect(reached).toBe(0);
  });
});
