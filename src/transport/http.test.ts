import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeUrl } from './http-common.js';
import { HttpTransport, retryAfterMs } from './http.js';
import { lateAnswer, lateAnswerSoFar } from './late-answers.js';
import { RequestGate } from './request-gate.js';
import type { HttpTransportOptions } from './http.js';
import { TargetUnavailableError } from './types.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let baseUrl: string;
let handler: Handler;
let received: Received[];
let connectionCount: number;
let requestsClosedEarly: number;
const transports: HttpTransport[] = [];

const request = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const okResponse = { jsonrpc: '2.0', id: 1, result: { tools: [] } };

function transport(overrides: Partial<HttpTransportOptions> = {}): HttpTransport {
  const created = new HttpTransport({ url: `${baseUrl}/mcp`, timeoutMs: 2000, ...overrides });
  transports.push(created);
  return created;
}

function replyJson(status: number, body: unknown, extraHeaders: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...extraHeaders });
    res.end(JSON.stringify(body));
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body });
      res.on('close', () => {
        if (!res.writableFinished) requestsClosedEarly += 1;
      });
      handler(req, res, body);
    });
  });
  server.on('connection', () => {
    connectionCount += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  connectionCount = 0;
  requestsClosedEarly = 0;
  handler = replyJson(200, okResponse);
});

afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

describe('HttpTransport: requests and JSON responses', () => {
  it('POSTs the message with the required headers and records a JSON response', async () => {
    const t = transport();
    await t.start();
    const exchange = await t.send(request, 1, {
      headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' },
    });

    expect(exchange.failure).toBeUndefined();
    expect(exchange.status).toBe(200);
    expect(exchange.response).toEqual(okResponse);
    expect(exchange.request).toBe(request);
    expect(exchange.notifications).toEqual([]);
    expect(exchange.seq).toBeGreaterThan(0);
    expect(exchange.responseHeaders?.['content-type']).toBe('application/json');
    expect(exchange.requestHeaders).toMatchObject({
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    });

    const [sent] = received;
    expect(JSON.parse(sent?.body ?? '')).toEqual(request);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.accept).toBe('application/json, text/event-stream');
    expect(sent?.headers['mcp-method']).toBe('tools/list');
  });

  it('sends a string message verbatim so malformed bodies can be tested', async () => {
    handler = replyJson(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    const exchange = await transport().send('{"jsonrpc":', undefined);
    expect(received[0]?.body).toBe('{"jsonrpc":');
    expect(exchange.status).toBe(400);
    expect(exchange.failure).toBeUndefined();
  });

  it('keeps a non-2xx JSON-RPC error body as the response without a failure', async () => {
    const error = { jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'Header mismatch' } };
    handler = replyJson(400, error);
    const exchange = await transport().send(request, 1);
    expect(exchange.status).toBe(400);
    expect(exchange.response).toEqual(error);
    expect(exchange.failure).toBeUndefined();
  });

  it('reports a 404 with an empty body as an http-status failure', async () => {
    handler = (_req, res) => {
      res.writeHead(404);
      res.end();
    };
    const exchange = await transport().send(request, 1);
    expect(exchange.status).toBe(404);
    expect(exchange.failure).toEqual({ kind: 'http-status', message: 'HTTP 404 with empty body' });
    expect(exchange.rawBody).toBe('');
  });

  it('reports a non-JSON error body with a truncated rawBody', async () => {
    handler = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>'.padEnd(10_000, 'x'));
    };
    const exchange = await transport().send(request, 1);
    expect(exchange.failure?.kind).toBe('http-status');
    expect(exchange.rawBody?.length).toBe(4096);
  });

  it('reports a 2xx non-JSON body as malformed', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('not json');
    };
    const exchange = await transport().send(request, 1);
    expect(exchange.failure?.kind).toBe('malformed');
    expect(exchange.rawBody).toBe('not json');
  });

  it('reports a response with another id as wrong-id and keeps it', async () => {
    handler = replyJson(200, { ...okResponse, id: 99 });
    const exchange = await transport().send(request, 1);
    expect(exchange.failure?.kind).toBe('wrong-id');
    expect(exchange.response).toEqual({ ...okResponse, id: 99 });
  });

  it('accepts 202 with an empty body for a notification', async () => {
    handler = (_req, res) => {
      res.writeHead(202);
      res.end();
    };
    const exchange = await transport().send({ jsonrpc: '2.0', method: 'notifications/x' }, undefined, {
      notification: true,
    });
    expect(exchange.status).toBe(202);
    expect(exchange.failure).toBeUndefined();
    expect(exchange.response).toBeUndefined();
  });

  it('retries once after a 429 with Retry-After and returns the final attempt', async () => {
    handler = (req, res) => {
      if (received.length === 1) {
        res.writeHead(429, { 'retry-after': '0' });
        res.end();
      } else {
        replyJson(200, okResponse)(req, res, '');
      }
    };
    const exchange = await transport().send(request, 1);
    expect(received).toHaveLength(2);
    expect(exchange.status).toBe(200);
    expect(exchange.response).toEqual(okResponse);
  });
});

describe('HttpTransport: 429 and the shared request gate', () => {
  // Arrival times carry transit jitter; the gate's exact spacing is proven with fake timers in request-gate.test.ts.
  const JITTER_MS = 50;
  let arrivalTimes: number[];
  const arrivals = (): number[] => arrivalTimes;
  beforeEach(() => {
    arrivalTimes = [];
  });
  const stamp =
    (next: Handler): Handler =>
    (req, res, body) => {
      arrivalTimes.push(performance.now());
      next(req, res, body);
    };

  it('does not retry a Retry-After over 30 s and says why, so the audit can stop with that reason', async () => {
    handler = stamp((_req, res) => res.writeHead(429, { 'retry-after': '120' }).end());
    const exchange = await transport().send(request, 1);
    expect(received).toHaveLength(1);
    expect(exchange.status).toBe(429);
    expect(exchange.failure?.kind).toBe('rate-limited');
    expect(exchange.failure?.message).toBe(
      'HTTP 429 Too Many Requests with Retry-After: 120 (120 s), longer than the 30 s an audit waits: the ' +
        'audit stops here (rerun later, or with a lower --max-rps)',
    );
  });

  it('does not retry a 429 without Retry-After, and gives up after a second 429', async () => {
    handler = stamp((_req, res) => res.writeHead(429).end());
    const none = await transport().send(request, 1);
    expect(none.failure).toEqual({
      kind: 'rate-limited',
      message: expect.stringMatching(/^HTTP 429 Too Many Requests without Retry-After/),
    });
    expect(received).toHaveLength(1);
    handler = stamp((_req, res) => res.writeHead(429, { 'retry-after': '0' }).end());
    const twice = await transport().send(request, 1);
    expect(received).toHaveLength(3);
    expect(twice.failure).toEqual({
      kind: 'rate-limited',
      message: expect.stringMatching(/again after waiting out Retry-After: 0/),
    });
  });

  it('holds every connection sharing the gate back for the Retry-After, then retries through the gate', async () => {
    const gate = new RequestGate({ maxRps: 20 });
    handler = stamp((req, res, body) => {
      if (received.length === 1) return void res.writeHead(429, { 'retry-after': '1' }).end();
      replyJson(200, { ...okResponse, id: (JSON.parse(body) as { id: number }).id })(req, res, body);
    });
    const limited = transport({ gate }).send(request, 1);
    await delay(100);
    const other = transport({ gate }).send({ ...request, id: 2 }, 2);
    const [first, second] = await Promise.all([limited, other]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const [refused, ...later] = arrivals();
    expect(later).toHaveLength(2);
    for (const at of later) expect(at - refused!).toBeGreaterThanOrEqual(1000 - JITTER_MS);
  });

  it('spaces requests by --max-rps without counting the wait against the request timeout', async () => {
    const gate = new RequestGate({ maxRps: 4 });
    handler = stamp(replyJson(200, okResponse));
    const client = transport({ gate, timeoutMs: 150 });
    const exchanges = await Promise.all([1, 2, 3].map(() => client.send(request, 1)));
    for (const exchange of exchanges) expect(exchange.failure).toBeUndefined();
    const times = arrivals();
    // Arrivals are stamped by the server: on a loaded machine one can land late and the next on time, so each gap gets
    // a wider margin than the whole (unspaced, the three arrive within a few milliseconds).
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(250 - 2 * JITTER_MS);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(250 - 2 * JITTER_MS);
    expect(times[2]! - times[0]!).toBeGreaterThanOrEqual(500 - JITTER_MS);
  });

  it('counts GET and DELETE probes against the cap too', async () => {
    const gate = new RequestGate({ maxRps: 5 });
    handler = stamp((_req, res) => res.writeHead(405).end());
    const client = transport({ gate });
    await Promise.all([client.probeMethod('GET'), client.probeMethod('DELETE')]);
    const times = arrivals();
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(200 - JITTER_MS);
  });

  it('reads Retry-After as delay-seconds or an HTTP-date', () => {
    const now = Date.UTC(2026, 7, 1, 10, 0, 0);
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sat, 01 Aug 2026 10:00:45 GMT', now)).toBe(45_000);
    expect(retryAfterMs('Sat, 01 Aug 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('12.5', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('HttpTransport: SSE responses', () => {
  it('collects notifications, ignores keep-alives, handles split CRLF framing and stops at our response', async () => {
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } };
    const otherResponse = { jsonrpc: '2.0', id: 7, result: {} };
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-accel-buffering': 'no' });
      const writes = [
        ':\r\n\r\n',
        `data: ${JSON.stringify(progress)}\r`,
        '\n\r',
        '\n: keep-alive\r\n',
        `data: ${JSON.stringify(otherResponse)}\r\n\r\n`,
        'id: 5\r\ndata:\r\n\r\n',
        `data: ${JSON.stringify(okResponse).slice(0, 10)}`,
        `${JSON.stringify(okResponse).slice(10)}\r`,
        '\n\r\n',
      ];
      void (async () => {
        for (const chunk of writes) {
          res.write(chunk);
          await delay(5);
        }
        // The stream is deliberately left open: the client must stop on its own.
      })();
    };
    const exchange = await transport().send(request, 1);
    expect(exchange.failure).toBeUndefined();
    expect(exchange.response).toEqual(okResponse);
    expect(exchange.notifications).toEqual([progress, otherResponse]);
    expect(exchange.responseHeaders?.['x-accel-buffering']).toBe('no');
    await delay(50);
    expect(requestsClosedEarly).toBe(1);
  });

  it('counts the JSON messages of a body or an event stream whose bytes were not valid UTF-8', async () => {
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const note = '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"caf\u00e9"}}';
    const answer = '{"jsonrpc":"2.0","id":1,"result":{"t":"caf\u00e9"}}';
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(latin1(answer));
    };
    const json = await transport().send(request, 1);
    expect(json.response).toEqual({ jsonrpc: '2.0', id: 1, result: { t: 'caf\uFFFD' } });
    expect(json.invalidUtf8).toBe(1);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(Buffer.concat([latin1(`data: ${note}\n\n`), Buffer.from(`data: ${answer}\n\n`, 'utf8')]));
    };
    const sse = await transport().send(request, 1);
    expect(sse.response).toEqual({ jsonrpc: '2.0', id: 1, result: { t: 'caf\u00e9' } });
    expect(sse.invalidUtf8).toBe(1);
    handler = replyJson(200, { jsonrpc: '2.0', id: 1, result: { t: 'caf\u00e9 \ufffd' } });
    expect((await transport().send(request, 1)).invalidUtf8).toBeUndefined();
  });

  it('takes a JSON-RPC batch of responses holding the answer to our id as the response, in a JSON body or an SSE event', async () => {
    const batch = [{ jsonrpc: '2.0', id: 'a', result: {} }, okResponse];
    const sent = [{ jsonrpc: '2.0', id: 'a', method: 'ping' }, request];
    handler = replyJson(200, batch);
    const json = await transport().send(sent, 1);
    expect([json.failure, json.response]).toEqual([undefined, batch]);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(batch)}\n\n`);
    };
    const sse = await transport().send(sent, 1);
    expect([sse.failure, sse.response]).toEqual([undefined, batch]);
    handler = replyJson(200, [{ jsonrpc: '2.0', id: 'a', result: {} }]);
    expect((await transport().send(sent, 1)).failure?.kind).toBe('malformed');
  });

  it('reports a stream that ends without our response as malformed', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.end('data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n');
    };
    const exchange = await transport().send(request, 1);
    expect(exchange.failure).toEqual({ kind: 'malformed', message: 'SSE stream ended without a response to id 1' });
    expect(exchange.notifications).toHaveLength(1);
  });

  it('reports non-JSON event data as malformed', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: hello\n\n');
    };
    const exchange = await transport().send(request, 1);
    expect(exchange.failure?.kind).toBe('malformed');
    expect(exchange.rawBody).toBe('hello');
  });
});

describe('HttpTransport: bounds and failures', () => {
  it('times out when the server never answers, listens for a late answer for its grace, then aborts the request', async () => {
    handler = () => undefined;
    const started = Date.now();
    const exchange = await transport({ timeoutMs: 200 }).send(request, 1);
    expect(exchange.failure?.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(exchange.durationMs).toBeGreaterThanOrEqual(190);
    await delay(50);
    expect(requestsClosedEarly).toBe(0);
    expect(await lateAnswer(exchange)).toBeUndefined();
    await delay(50);
    expect(requestsClosedEarly).toBe(1);
  });

  it('an answer after the timeout is the late answer, and the connection waiting for it holds up no other request', async () => {
    handler = (req, res, body) => {
      const id = (JSON.parse(body) as { id: number }).id;
      setTimeout(() => replyJson(200, { ...okResponse, id })(req, res, body), id === 1 ? 400 : 0);
    };
    const t = transport({ timeoutMs: 100 });
    const exchange = await t.send(request, 1);
    expect(exchange.failure).toEqual({ kind: 'timeout', message: 'no complete response within 100 ms' });
    const next = await t.send({ ...request, id: 2 }, 2);
    expect(next.failure).toBeUndefined();
    expect(lateAnswerSoFar(exchange)).toBeUndefined();
    const late = await lateAnswer(exchange);
    expect(late).toMatchObject({ timeoutMs: 100, endedOn: 'timeout', response: okResponse });
    expect(late!.afterMs).toBeGreaterThanOrEqual(390);
    // The timed-out exchange stays as it was judged.
    expect(exchange.response).toBeUndefined();
    expect(connectionCount).toBe(2);
  });

  it('a late answer on an event stream, after notifications, is the late answer too', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n');
      setTimeout(() => res.end(`data: ${JSON.stringify(okResponse)}\n\n`), 300);
    };
    const exchange = await transport().send(request, 1, { timeoutMs: 100 });
    expect(exchange.failure?.kind).toBe('timeout');
    expect(exchange.notifications).toHaveLength(1);
    expect((await lateAnswer(exchange))?.response).toEqual(okResponse);
    expect(exchange.notifications).toHaveLength(1);
  });

  it('times out on a stalled SSE body and keeps the notifications seen so far', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n');
    };
    const exchange = await transport().send(request, 1, { timeoutMs: 200 });
    expect(exchange.failure?.kind).toBe('timeout');
    expect(exchange.notifications).toHaveLength(1);
  });

  it('stops reading a body larger than maxMessageBytes', async () => {
    handler = replyJson(200, { ...okResponse, result: { padding: 'x'.repeat(1000) } });
    const exchange = await transport({ maxMessageBytes: 64 }).send(request, 1);
    expect(exchange.failure?.kind).toBe('too-large');
    expect(exchange.response).toBeUndefined();
  });

  it('reports a refused connection with the error code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const exchange = await transport({ url: `http://127.0.0.1:${port}/mcp` }).send(request, 1);
    expect(exchange.failure?.kind).toBe('connection');
    expect(exchange.failure?.message).toContain('ECONNREFUSED');
  });

  it('rejects non-HTTP URLs at start without contacting anything', async () => {
    await expect(transport({ url: 'ftp://127.0.0.1/mcp' }).start()).rejects.toBeInstanceOf(TargetUnavailableError);
    await expect(transport({ url: 'not a url' }).start()).rejects.toBeInstanceOf(TargetUnavailableError);
    expect(received).toHaveLength(0);
  });
});

describe('HttpTransport: evidence and connection reuse', () => {
  it('sends user headers but redacts them and secret response headers in evidence', async () => {
    handler = replyJson(200, okResponse, { 'set-cookie': 'session=topsecret' });
    const t = transport({ headers: { Authorization: 'Bearer s3cret', 'X-Tenant': 'acme' } });
    const exchange = await t.send(request, 1, { headers: { 'Mcp-Method': 'tools/list' } });

    expect(received[0]?.headers.authorization).toBe('Bearer s3cret');
    expect(received[0]?.headers['x-tenant']).toBe('acme');
    expect(exchange.requestHeaders?.Authorization).toBe('[redacted]');
    expect(exchange.requestHeaders?.['X-Tenant']).toBe('[redacted]');
    expect(exchange.requestHeaders?.['Mcp-Method']).toBe('tools/list');
    expect(exchange.responseHeaders?.['set-cookie']).toBe('[redacted]');
    expect(JSON.stringify(exchange)).not.toMatch(/s3cret|topsecret/);
  });

  it('lets per-request headers override user headers case-insensitively', async () => {
    const t = transport({ headers: { 'mcp-method': 'user-value' } });
    const exchange = await t.send(request, 1, { headers: { 'Mcp-Method': 'tools/list' } });
    expect(received[0]?.headers['mcp-method']).toBe('tools/list');
    expect(exchange.requestHeaders?.['Mcp-Method']).toBe('tools/list');
  });

  it('reuses one kept-alive connection for consecutive requests', async () => {
    handler = (_req, res, body) => {
      const { id } = JSON.parse(body) as { id: number };
      replyJson(200, { ...okResponse, id })(_req, res, body);
    };
    const t = transport();
    const first = await t.send(request, 1);
    const second = await t.send({ ...request, id: 2 }, 2);
    const third = await t.send({ ...request, id: 3 }, 3);
    expect([first, second, third].map((e) => e.failure)).toEqual([undefined, undefined, undefined]);
    expect(second.seq).toBeGreaterThan(first.seq);
    expect(received).toHaveLength(3);
    expect(connectionCount).toBe(1);
  });

  it('spreads anyConnection requests over its connections when given several, and keeps the others on the first', async () => {
    const portsOf = new Map<number, number | undefined>();
    handler = (req, res, body) => {
      const { id } = JSON.parse(body) as { id: number };
      portsOf.set(id, req.socket.remotePort);
      setTimeout(() => replyJson(200, { ...okResponse, id })(req, res, body), 30);
    };
    const t = transport({ connections: 3 });
    const first = await t.send({ ...request, id: 1 }, 1);
    const spread = await Promise.all([2, 3, 4].map((id) => t.send({ ...request, id }, id, { anyConnection: true })));
    const pinned = await Promise.all([5, 6].map((id) => t.send({ ...request, id }, id)));
    expect([first, ...spread, ...pinned].map((e) => e.failure)).toEqual(new Array(6).fill(undefined));
    expect(connectionCount).toBe(3);
    expect(new Set([2, 3, 4].map((id) => portsOf.get(id))).size).toBe(3);
    expect([5, 6].map((id) => portsOf.get(id))).toEqual([portsOf.get(1), portsOf.get(1)]);
  });

  it('sends its first spread request over the first connection, even while that one is busy, and later ones to idle connections', async () => {
    const portsOf = new Map<number, number | undefined>();
    handler = (req, res, body) => {
      const { id } = JSON.parse(body) as { id: number };
      portsOf.set(id, req.socket.remotePort);
      setTimeout(() => replyJson(200, { ...okResponse, id })(req, res, body), 30);
    };
    const t = transport({ connections: 3 });
    const pinned = t.send({ ...request, id: 1 }, 1);
    const spread = [2, 3].map((id) => t.send({ ...request, id }, id, { anyConnection: true }));
    expect((await Promise.all([pinned, ...spread])).map((e) => e.failure)).toEqual([undefined, undefined, undefined]);
    expect(portsOf.get(2)).toBe(portsOf.get(1));
    expect(portsOf.get(3)).not.toBe(portsOf.get(1));
  });

  it('stops using an extra connection the server refuses, and sends its request over the first instead', async () => {
    handler = (req, res, body) =>
      setTimeout(
        () => replyJson(200, { ...okResponse, id: (JSON.parse(body) as { id: number }).id })(req, res, body),
        20,
      );
    // Sockets of earlier tests may still be open on the server's side: the limit must leave room for ours.
    server.closeAllConnections();
    for (
      let i = 0;
      i < 100 && (await new Promise<number>((done) => server.getConnections((_e, n) => done(n)))) > 0;
      i += 1
    )
      await delay(10);
    server.maxConnections = 1;
    try {
      const t = transport({ connections: 3 });
      expect((await t.send({ ...request, id: 1 }, 1)).failure).toBeUndefined();
      const spread = await Promise.all(
        [2, 3, 4, 5, 6].map((id) => t.send({ ...request, id }, id, { anyConnection: true })),
      );
      expect(spread.map((e) => [e.failure, (e.response as { id?: number } | undefined)?.id])).toEqual(
        [2, 3, 4, 5, 6].map((id) => [undefined, id]),
      );
      expect(received.map((r) => (JSON.parse(r.body) as { id: number }).id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
      expect(connectionCount).toBe(1);
    } finally {
      server.maxConnections = Infinity;
    }
  });

  it('keeps anyConnection requests on its one connection by default', async () => {
    handler = (req, res, body) =>
      setTimeout(
        () => replyJson(200, { ...okResponse, id: (JSON.parse(body) as { id: number }).id })(req, res, body),
        10,
      );
    const t = transport();
    const exchanges = await Promise.all([1, 2, 3].map((id) => t.send({ ...request, id }, id, { anyConnection: true })));
    expect(exchanges.map((e) => e.failure)).toEqual([undefined, undefined, undefined]);
    expect(connectionCount).toBe(1);
  });

  it('a request waiting for a busy connection is timed from when it is sent, not from when it queued: our queue is not the target being slow', async () => {
    handler = (req, res, body) => {
      const id = (JSON.parse(body) as { id: number }).id;
      setTimeout(() => replyJson(200, { ...okResponse, id })(req, res, body), 300);
    };
    const t = transport({ timeoutMs: 500 });
    const exchanges = await Promise.all([1, 2, 3].map((id) => t.send({ ...request, id }, id)));
    expect(exchanges.map((e) => e.failure)).toEqual([undefined, undefined, undefined]);
    expect(exchanges.map((e) => e.durationMs).every((ms) => ms < 500)).toBe(true);
    expect(connectionCount).toBe(1);
  });

  it('a request queued behind one that timed out is sent on a new connection at once, while the old one waits for the late answer', async () => {
    handler = (req, res, body) => {
      const id = (JSON.parse(body) as { id: number }).id;
      setTimeout(() => replyJson(200, { ...okResponse, id })(req, res, body), id === 1 ? 600 : 0);
    };
    const t = transport({ timeoutMs: 200 });
    const [slow, queued] = await Promise.all([t.send(request, 1), t.send({ ...request, id: 2 }, 2)]);
    expect(slow.failure?.kind).toBe('timeout');
    expect(queued.failure).toBeUndefined();
    expect(queued.durationMs).toBeLessThan(200);
    expect((await lateAnswer(slow))?.response).toEqual(okResponse);
  });

  it('describes the target with credentials and query values redacted', () => {
    expect(describeUrl('https://user:pw@example.com:8443/mcp?token=abc&x=1')).toBe(
      'https://[redacted]@example.com:8443/mcp?token=[redacted]&x=[redacted]',
    );
    expect(transport({ url: 'http://127.0.0.1:1/mcp' }).description).toBe('http://127.0.0.1:1/mcp');
    expect(transport().strays()).toEqual([]);
    expect(transport().stderr()).toBe('');
  });
});

describe('HttpTransport: subscriptions/listen streams', () => {
  const listenRequest = {
    jsonrpc: '2.0',
    id: 9,
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true } },
  };
  const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

  it('collects notifications as they arrive, lets other requests through meanwhile, and closes the stream on close()', async () => {
    handler = (req, res, body) => {
      if (JSON.parse(body).method !== 'subscriptions/listen') return replyJson(200, okResponse)(req, res, body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        event({
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 9 } },
        }),
      );
      setTimeout(
        () => res.write(event({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} })),
        50,
      );
    };
    const t = transport();
    const stream = await t.listen(listenRequest, 9);
    expect(await stream.waitFor((messages) => messages.length >= 1, 1000)).toBe(true);
    expect((await t.send(request, 1)).response).toEqual(okResponse);
    expect(await stream.waitFor((messages) => messages.length >= 2, 1000)).toBe(true);
    expect(await stream.waitFor((messages) => messages.length >= 3, 100)).toBe(false);
    const exchange = await stream.close();
    expect(exchange.status).toBe(200);
    expect(exchange.failure).toBeUndefined();
    expect(exchange.notifications).toHaveLength(2);
    expect(stream.ended).toBe(true);
    await delay(50);
    expect(requestsClosedEarly).toBe(1);
  });

  it('ends at once when the server answers the listen request with an error', async () => {
    handler = replyJson(404, { jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'Method not found' } });
    const stream = await transport().listen(listenRequest, 9);
    expect(await stream.waitFor(() => false, 2000)).toBe(false);
    expect(stream.ended).toBe(true);
    const exchange = await stream.close();
    expect(exchange).toMatchObject({ status: 404, response: { error: { code: -32601 } } });
  });
});

describe('HttpTransport: requests of the server (initialize wire)', () => {
  const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
  const rootsRequest = { jsonrpc: '2.0', id: 's1', method: 'roots/list' };
  const answerTo = (message: Record<string, unknown>) => ({
    response: { jsonrpc: '2.0', id: message.id, result: { roots: [] } },
    headers: { 'Mcp-Session-Id': 'session-1' },
  });
  const isAnswer = (body: string) => body !== '' && !('method' in (JSON.parse(body) as object));

  it("answers a request on a POST's event stream with a POST of its own while that POST still waits, and keeps both", async () => {
    let waiting: ServerResponse | undefined;
    handler = (req, res, body) => {
      if (isAnswer(body)) {
        res.writeHead(202).end();
        waiting?.end(event(okResponse));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event(rootsRequest));
      waiting = res;
    };
    const t = transport();
    t.answerServerRequests(answerTo);
    const exchange = await t.send(request, 1);
    expect(exchange.failure).toBeUndefined();
    expect(exchange.response).toEqual(okResponse);
    expect(exchange.notifications).toEqual([rootsRequest]);
    const answerPost = received.find((r) => isAnswer(r.body))!;
    expect(JSON.parse(answerPost.body)).toEqual({ jsonrpc: '2.0', id: 's1', result: { roots: [] } });
    expect(answerPost.headers['mcp-session-id']).toBe('session-1');
    expect(t.strays()).toMatchObject([
      { kind: 'server-request', data: rootsRequest, answer: { id: 's1', result: { roots: [] } } },
    ]);
    for (let i = 0; i < 100 && t.answerPosts()[0]?.rawBody === undefined; i += 1) await delay(10);
    expect(t.answerPosts()).toMatchObject([
      { request: { jsonrpc: '2.0', id: 's1', result: { roots: [] } }, status: 202, rawBody: '' },
    ]);
  });

  it('leaves a request unanswered without a responder, and still keeps it', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(event(rootsRequest) + event(okResponse));
    };
    const t = transport();
    expect((await t.send(request, 1)).response).toEqual(okResponse);
    await delay(50);
    expect(received).toHaveLength(1);
    expect(t.strays()).toEqual([
      { at: expect.any(String), seq: expect.any(Number), kind: 'server-request', data: rootsRequest },
    ]);
  });

  it('opens the GET stream once, answers the requests that arrive there and keeps its notifications; a 405 leaves nothing open', async () => {
    const ping = { jsonrpc: '2.0', id: 7, method: 'ping' };
    const logged = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } };
    handler = (req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`id: 1\ndata:\n\n${event(ping)}${event(logged)}`);
        return;
      }
      res.writeHead(202).end();
    };
    const t = transport();
    t.answerServerRequests((message) => ({ response: { jsonrpc: '2.0', id: message.id, result: {} }, headers: {} }));
    t.openServerStream({ 'Mcp-Session-Id': 'session-1' });
    t.openServerStream({ 'Mcp-Session-Id': 'session-1' });
    for (let i = 0; i < 100 && !received.some((r) => isAnswer(r.body)); i += 1) await delay(10);
    const gets = received.filter((r) => r.body === '');
    expect(gets).toHaveLength(1);
    expect(gets[0]!.headers).toMatchObject({
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 'session-1',
    });
    expect(JSON.parse(received.find((r) => isAnswer(r.body))!.body)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    expect(t.strays().map((s) => [s.kind, s.data])).toEqual([
      ['server-request', ping],
      ['notification', logged],
    ]);
    expect(t.serverStreamAnswer()).toMatchObject({
      request: { httpMethod: 'GET' },
      status: 200,
      responseHeaders: { 'content-type': 'text/event-stream' },
    });
    expect(t.serverStreamAnswer()!.requestHeaders).toMatchObject({ 'Mcp-Session-Id': 'session-1' });
    await t.close();
    await delay(50);
    expect(requestsClosedEarly).toBe(1);

    handler = replyJson(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed' } });
    const other = transport();
    expect(other.serverStreamAnswer()).toBeUndefined();
    await other.openServerStream({});
    expect(other.strays()).toEqual([]);
    expect(other.serverStreamAnswer()).toMatchObject({ status: 405 });
  });

  it('waits a bounded time for a GET stream whose headers are held back, and keeps it open for what comes later', async () => {
    const ping = { jsonrpc: '2.0', id: 8, method: 'ping' };
    let stream: ServerResponse | undefined;
    handler = (req, res) => {
      if (req.method === 'GET') stream = res;
      else res.writeHead(202).end();
    };
    const t = transport({ timeoutMs: 300 });
    t.answerServerRequests((message) => ({ response: { jsonrpc: '2.0', id: message.id, result: {} }, headers: {} }));
    const started = performance.now();
    await t.openServerStream({});
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(t.serverStreamAnswer()).toMatchObject({ request: { httpMethod: 'GET' } });
    expect(t.serverStreamAnswer()!.status).toBeUndefined();
    await delay(400);
    stream!.writeHead(200, { 'content-type': 'text/event-stream' });
    stream!.write(event(ping));
    for (let i = 0; i < 100 && !received.some((r) => isAnswer(r.body)); i += 1) await delay(10);
    expect(JSON.parse(received.find((r) => isAnswer(r.body))!.body)).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
    expect(t.serverStreamAnswer()!.status).toBe(200);
  });
});
