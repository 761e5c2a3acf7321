import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpSseTransport, type HttpSseTransportOptions } from './http-sse.js';
import { HttpTransport } from './http.js';
import { RequestGate } from './request-gate.js';
import { REDACTED } from '../model/redacted.js';

/** What the test server does with a GET to /sse (the event stream) and a POST to the endpoint. */
type GetHandler = (res: ServerResponse) => void;
type PostHandler = (message: Record<string, unknown>, res: ServerResponse, stream: ServerResponse | undefined) => void;

interface Received {
  /** performance.now() when the request arrived. */
  at: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let baseUrl: string;
let onGet: GetHandler;
let onPost: PostHandler;
let received: Received[];
/** The open event stream of the last GET. */
let stream: ServerResponse | undefined;
const transports: { close(): Promise<void> }[] = [];

const event = (res: ServerResponse, type: string, data: string) => res.write(`event: ${type}\ndata: ${data}\n\n`);
const openStream = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });

/** The 2024-11-05 shape: the stream opens with the endpoint, then each answer is a `message` event on it. */
const withEndpoint: GetHandler = (res) => {
  openStream(res);
  event(res, 'endpoint', '/messages?sessionId=abc');
};
const answerOnStream: PostHandler = (message, res, events) => {
  res.writeHead(202).end('Accepted');
  if ('id' in message && 'method' in message)
    event(events!, 'message', JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { echoed: message.method } }));
};

function transport(overrides: Partial<HttpSseTransportOptions> = {}): HttpSseTransport {
  const created = new HttpSseTransport({ url: `${baseUrl}/sse`, timeoutMs: 5000, ...overrides });
  transports.push(created);
  return created;
}

const request = (id: number, method = 'tools/list') => ({ jsonrpc: '2.0', id, method });

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ at, method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.method === 'GET' && req.url === '/sse') {
        stream = res;
        return onGet(res);
      }
      if (req.method === 'POST' && req.url?.startsWith('/messages'))
        return onPost(JSON.parse(body) as Record<string, unknown>, res, stream);
      res.writeHead(404).end('Not found');
    });
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
  stream = undefined;
  onGet = withEndpoint;
  onPost = answerOnStream;
});

afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

describe('HttpSseTransport: the HTTP with SSE transport of 2024-11-05', () => {
  it('POSTs each message to the endpoint the stream named, and takes the answer from the stream; --header values are sent, and redacted in evidence', async () => {
    const t = transport({ headers: { Authorization: 'Bearer s3cret' } });
    await t.start();
    const exchange = await t.send(request(1), 1);

    expect(exchange.response).toEqual({ jsonrpc: '2.0', id: 1, result: { echoed: 'tools/list' } });
    expect(exchange.failure).toBeUndefined();
    expect(exchange.status).toBe(202);
    expect(exchange.requestHeaders).toEqual({ 'Content-Type': 'application/json', Authorization: REDACTED });
    const [get, post] = received;
    expect(get).toMatchObject({
      method: 'GET',
      url: '/sse',
      headers: { accept: 'text/event-stream', authorization: 'Bearer s3cret' },
    });
    expect(post).toMatchObject({
      method: 'POST',
      url: '/messages?sessionId=abc',
      headers: { 'content-type': 'application/json', authorization: 'Bearer s3cret' },
    });
    expect(JSON.parse(post!.body)).toEqual(request(1));
    expect(t.found).toBe(
      `a GET opened an event stream whose first event, endpoint, named /messages?sessionId=${REDACTED}: the ` +
        `deprecated HTTP+SSE transport of 2024-11-05`,
    );
  });

  it('answers matched by id whatever their order; a notification goes to the requests in flight, one with none in flight is a stray', async () => {
    const posted: Record<string, unknown>[] = [];
    onPost = (message, res, events) => {
      res.writeHead(202).end();
      posted.push(message);
      if (posted.length < 2) return;
      event(
        events!,
        'message',
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }),
      );
      for (const m of [...posted].reverse())
        event(events!, 'message', JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
      event(events!, 'message', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }));
    };
    const t = transport();
    await t.start();
    const [first, second] = await Promise.all([t.send(request(1), 1), t.send(request(2), 2)]);
    expect([first.response, second.response]).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(first.notifications).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    ]);
    await expect.poll(() => t.strays().map((s) => s.kind)).toEqual(['notification']);
  });

  it("answers the server's own request with a POST to the endpoint, and keeps it with its answer", async () => {
    const t = transport();
    t.answerServerRequests((r) => ({ response: { jsonrpc: '2.0', id: r.id, result: { roots: [] } }, headers: {} }));
    await t.start();
    event(stream!, 'message', JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' }));
    await expect
      .poll(() => received.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body) as unknown))
      .toEqual([{ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } }]);
    expect(t.strays()).toMatchObject([
      {
        kind: 'server-request',
        data: { id: 'srv-1', method: 'roots/list' },
        answer: { id: 'srv-1', result: { roots: [] } },
      },
    ]);
  });

  it('a POST refused with a 4xx fails its request at once, with the status and body, not at the timeout', async () => {
    onPost = (_message, res) => res.writeHead(400).end('Invalid message: {"jsonrpc":');
    const t = transport({ timeoutMs: 10_000 });
    await t.start();
    const started = performance.now();
    const exchange = await t.send(request(1), 1);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(exchange.status).toBe(400);
    expect(exchange.failure).toEqual({
      kind: 'http-status',
      message: 'HTTP 400 to the POST of the message (body: "Invalid message: {\\"jsonrpc\\":")',
    });
    expect(exchange.rawBody).toBe('Invalid message: {"jsonrpc":');
  });

  it("the GET and every POST wait for their turn at the run's --max-rps gate", async () => {
    const t = transport({ gate: new RequestGate({ maxRps: 5 }) });
    await t.start();
    await t.send(request(1), 1);
    await t.send(request(2), 2);
    const at = received.map((r) => r.at);
    expect(at).toHaveLength(3);
    for (let i = 1; i < at.length; i += 1) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(180);
  });

  it('a request nobody answers fails at its timeout', async () => {
    onPost = (_message, res) => res.writeHead(202).end();
    const t = transport({ timeoutMs: 300 });
    await t.start();
    expect((await t.send(request(1), 1)).failure).toEqual({
      kind: 'timeout',
      message: 'no response to id 1 within 300 ms',
    });
  });

  it('the server ending its stream fails what waits, and whatever is sent after', async () => {
    onPost = (_message, res, events) => {
      res.writeHead(202).end();
      events!.end();
    };
    const t = transport({ timeoutMs: 5000 });
    await t.start();
    const ended = { kind: 'target-exited', message: 'the server ended the HTTP+SSE event stream' };
    expect((await t.send(request(1), 1)).failure).toEqual(ended);
    expect((await t.send(request(2), 2)).failure).toEqual(ended);
    expect(received.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('after close() a request fails at once, and nothing more is sent', async () => {
    const t = transport();
    await t.start();
    await t.close();
    expect((await t.send(request(1), 1)).failure).toEqual({ kind: 'target-exited', message: 'transport closed' });
    expect(received.map((r) => r.method)).toEqual(['GET']);
  });

  it('an event over --max-message-bytes drops the stream, failing what waits (bounded memory, no timeout)', async () => {
    onPost = (_message, res, events) => {
      res.writeHead(202).end();
      events!.write(`event: message\ndata: "${'x'.repeat(4096)}`);
    };
    const t = transport({ timeoutMs: 10_000, maxMessageBytes: 1024 });
    await t.start();
    const exchange = await t.send(request(1), 1);
    expect(exchange.failure).toEqual({
      kind: 'too-large',
      message: 'an event of the HTTP+SSE stream exceeded 1024 bytes (--max-message-bytes): the stream was dropped',
    });
  });
});

describe('HttpSseTransport: a stream that offers no usable endpoint is refused with the reason, within the timeout', () => {
  const cases: { name: string; get: GetHandler; reason: string | RegExp }[] = [
    {
      name: 'GET 404',
      get: (res) => res.writeHead(404).end('Not found'),
      reason: 'a GET to the URL answered HTTP 404, not an event stream (body: "Not found")',
    },
    {
      name: 'a page, not a stream',
      get: (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'),
      reason: 'a GET to the URL answered HTTP 200 with Content-Type "text/html", not an event stream (body: "<html>")',
    },
    {
      name: 'another event first',
      get: (res) => {
        openStream(res);
        event(res, 'message', '{}');
      },
      reason: 'the first event of the GET stream was "message", not "endpoint"',
    },
    {
      name: 'the stream ends first',
      get: (res) => {
        openStream(res);
        res.end(': bye\n\n');
      },
      reason: 'the GET stream ended before its endpoint event',
    },
    {
      name: 'never an endpoint',
      get: (res) => {
        openStream(res);
        res.write(': waiting\n\n');
      },
      reason: 'no endpoint event arrived on the GET stream within 500 ms (--timeout)',
    },
    {
      name: 'a flood before the endpoint',
      get: (res) => {
        openStream(res);
        for (let i = 0; i < 200; i += 1) res.write(`: ${'x'.repeat(1000)}\n`);
      },
      reason: /^the GET stream sent \d+ bytes without an endpoint event \(--max-message-bytes 65536\)$/,
    },
  ];
  for (const { name, get, reason } of cases) {
    it(name, async () => {
      onGet = get;
      const started = performance.now();
      const error = await transport({ timeoutMs: 500, maxMessageBytes: 65_536 })
        .start()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'TargetUnavailableError' });
      expect((error as Error).message).toMatch(reason);
      expect(performance.now() - started).toBeLessThan(1500);
    });
  }

  it('closed while it waits for the endpoint: start() ends at once', async () => {
    onGet = (res) => openStream(res);
    const t = transport({ timeoutMs: 10_000 });
    const starting = t.start().catch((e: unknown) => e);
    await expect.poll(() => stream).toBeDefined();
    const started = performance.now();
    await t.close();
    expect(await starting).toMatchObject({
      name: 'TargetUnavailableError',
      message: 'the connection was closed before the endpoint event arrived',
    });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('an endpoint on another origin is not followed: only the target is talked to', async () => {
    const other = createServer((_req, res) => res.writeHead(202).end());
    let reached = 0;
    other.on('request', () => (reached += 1));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      onGet = (res) => {
        openStream(res);
        event(res, 'endpoint', `${otherOrigin}/messages?sessionId=abc`);
      };
      const t = transport();
      await expect(t.start()).rejects.toThrow(
        `the endpoint event names a URL on ${otherOrigin}, another origin than the target's ${baseUrl}: not ` +
          `followed, since this tool only talks to the target`,
      );
      expect((await t.send(request(1), 1)).failure?.message).toBe('the HTTP+SSE event stream is not open');
      expect(reached).toBe(0);
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

describe('HttpTransport.fallBackToHttpSse', () => {
  it('once the GET stream named its endpoint, the transport speaks HTTP+SSE', async () => {
    const t = new HttpTransport({ url: `${baseUrl}/sse`, timeoutMs: 2000 });
    transports.push(t);
    await t.start();
    expect(t.kind).toBe('http');
    const posted = await t.send(request(1, 'initialize'), 1);
    expect(posted.status).toBe(404);
    expect(await t.fallBackToHttpSse()).toEqual({
      found: true,
      why: expect.stringContaining('endpoint, named /messages?sessionId=') as unknown,
    });
    expect(t.kind).toBe('http+sse');
    expect((await t.send(request(2, 'initialize'), 2)).response).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { echoed: 'initialize' },
    });
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /sse',
      'GET /sse',
      'POST /messages?sessionId=abc',
    ]);
  });

  it('without an event stream there, it stays Streamable HTTP and says what the GET found', async () => {
    onGet = (res) => res.writeHead(405).end();
    const t = new HttpTransport({ url: `${baseUrl}/sse`, timeoutMs: 2000 });
    transports.push(t);
    expect(await t.fallBackToHttpSse()).toEqual({
      found: false,
      why: 'a GET to the URL answered HTTP 405, not an event stream',
    });
    expect(t.kind).toBe('http');
  });
});
