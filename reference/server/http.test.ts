import { Agent, get, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeDefects, NO_DEFECTS, type DefectName } from './defects/index.js';
import { encodeHeaderValue } from './header-value.js';
import { startHttpServer, type RunningHttpServer } from './http.js';
import type { InitializeRevision } from './revisions.js';
import { initializeRequest, legacyRpc, meta, post, rpc, standardHeaders } from './test-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read at any depth by tests
type Message = Record<string, any>;

async function withServer(
  options: { sse?: boolean; defects?: DefectName[]; toolLatencyMs?: number; revision?: InitializeRevision },
  body: (server: RunningHttpServer) => Promise<void>,
) {
  const server = await startHttpServer({
    port: 0,
    sse: options.sse ?? false,
    defects: activeDefects(options.defects ?? []),
    log: () => {},
    ...(options.revision ? { revision: options.revision } : {}),
    ...(options.toolLatencyMs ? { toolLatencyMs: options.toolLatencyMs } : {}),
  });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

const searchCall = (args: Record<string, unknown>) =>
  rpc('s-1', 'tools/call', { name: 'search_docs', arguments: args });

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const withVersion = (id: number, version: string): Message => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/list',
  params: { _meta: meta({}, { [VERSION_KEY]: version }) },
});
const without = (headers: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));

interface Probe {
  body: Message;
  headers: Record<string, string>;
}

/** The requests the conformance checks send, with the standard headers changed as each needs. */
const PROBES = {
  noMeta: (): Probe => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    return { body, headers: standardHeaders(body) };
  },
  headerVersionMismatch: (): Probe => {
    const body = rpc(2, 'tools/list');
    return { body, headers: { ...standardHeaders(body), 'MCP-Protocol-Version': '2025-11-25' } };
  },
  unsupportedVersion: (): Probe => {
    const body = withVersion(3, '1900-01-01');
    return { body, headers: { ...standardHeaders(body), 'MCP-Protocol-Version': '1900-01-01' } };
  },
  noVersionHeader: (): Probe => {
    const body = rpc(4, 'tools/list');
    return { body, headers: without(standardHeaders(body), 'MCP-Protocol-Version') };
  },
  noMethodHeader: (): Probe => {
    const body = rpc(5, 'tools/list');
    return { body, headers: without(standardHeaders(body), 'Mcp-Method') };
  },
  methodHeaderMismatch: (): Probe => {
    const body = rpc(6, 'server/discover');
    return { body, headers: { ...standardHeaders(body), 'Mcp-Method': 'tools/list' } };
  },
  unknownMethod: (): Probe => {
    const body = rpc(7, 'tools/bogus');
    return { body, headers: standardHeaders(body) };
  },
  sessionId: (): Probe => {
    const body = rpc(8, 'tools/list');
    return { body, headers: { ...standardHeaders(body), 'Mcp-Session-Id': 'abc' } };
  },
};

/** Tool names of every page, following nextCursor, over the given connection(s). */
async function walkNames(url: string, agent?: Agent | false): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const body = rpc(`w${pages.length}`, 'tools/list', cursor === undefined ? {} : { cursor });
    const response = (await post(url, body, standardHeaders(body), 'POST', agent)).messages[0] as Message;
    pages.push((response.result.tools as Message[]).map((tool) => tool.name as string));
    cursor = response.result.nextCursor;
  } while (cursor !== undefined && pages.length < 10);
  return pages;
}

describe('Streamable HTTP', () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await startHttpServer({ port: 0, sse: false, defects: NO_DEFECTS, log: () => {} });
  });
  afterAll(async () => {
    await server.close();
  });

  const send = (body: Message, headers: Record<string, string> = standardHeaders(body as { method: string })) =>
    post(server.url, body, headers);

  it('listens on 127.0.0.1 at /mcp and answers with application/json', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const response = await send(rpc(1, 'server/discover'));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect((response.messages[0] as Message).result.supportedVersions).toEqual(['2026-07-28']);
  });

  it.each(['GET', 'DELETE'])('answers %s with 405', async (method) => {
    const response = await post(server.url, '', {}, method);
    expect(response.status).toBe(405);
  });

  it('answers notifications with 202 and an empty body', async () => {
    const response = await post(
      server.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { 'Content-Type': 'application/json' },
    );
    expect(response.status).toBe(202);
    expect(response.text).toBe('');
  });

  it.each(['http://evil.example', 'null', 'http://127.0.0.1.evil.example:8080'])(
    'rejects Origin %s with 403',
    async (origin) => {
      const body = rpc(1, 'server/discover');
      expect((await send(body, { ...standardHeaders(body), Origin: origin })).status).toBe(403);
    },
  );

  it.each(['http://localhost:3000', 'http://127.0.0.1', 'https://localhost', 'http://[::1]:8080'])(
    'accepts Origin %s',
    async (origin) => {
      const body = rpc(1, 'server/discover');
      expect((await send(body, { ...standardHeaders(body), Origin: origin })).status).toBe(200);
    },
  );

  it('ignores a client-supplied Mcp-Session-Id', async () => {
    const body = rpc(1, 'tools/list');
    const response = await send(body, { ...standardHeaders(body), 'Mcp-Session-Id': 'abc' });
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toBeUndefined();
  });

  it('answers a request without _meta with 400 and -32602', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(response.messages[0]).toMatchObject({ id: 1, error: { code: -32602 } });
  });

  it('answers an unsupported version with 400 and -32022', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) },
    };
    const response = await send(body, { ...standardHeaders(body), 'MCP-Protocol-Version': '2099-01-01' });
    expect(response.status).toBe(400);
    expect(response.messages[0]).toMatchObject({
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2099-01-01' } },
    });
  });

  it('answers unknown methods and initialize with 404 and -32601', async () => {
    expect((await send(rpc(1, 'resources/list'))).status).toBe(404);
    const initialize = await post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      { 'Content-Type': 'application/json' },
    );
    expect(initialize.status).toBe(404);
    expect((initialize.messages[0] as Message).error.message).toContain('2026-07-28');
  });

  it('answers invalid JSON with -32700', async () => {
    const response = await post(server.url, '{oops', standardHeaders({ method: 'tools/list' }));
    expect(response.messages[0]).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it('answers -32602 errors about tool calls with 200', async () => {
    const response = await send(rpc(1, 'tools/call', { name: 'nope', arguments: {} }));
    expect(response.status).toBe(200);
    expect(response.messages[0]).toMatchObject({ error: { code: -32602 } });
  });

  it('answers -32021 with 400', async () => {
    const response = await send(rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } }));
    expect(response.status).toBe(400);
    expect(response.messages[0]).toMatchObject({ error: { code: -32021 } });
  });

  describe('the probes the conformance checks send', () => {
    const sendProbe = ({ body, headers }: Probe) => send(body, headers);
    const expectError = async (probe: Probe, status: number, error: Message) => {
      const response = await sendProbe(probe);
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.headers['mcp-session-id']).toBeUndefined();
      expect(response.messages).toEqual([{ jsonrpc: '2.0', id: probe.body.id, error: expect.objectContaining(error) }]);
    };

    it('a body without _meta: 400 with -32602', () => expectError(PROBES.noMeta(), 400, { code: -32602 }));
    it('header 2025-11-25 with body 2026-07-28: 400 with -32020', () =>
      expectError(PROBES.headerVersionMismatch(), 400, { code: -32020 }));
    it('body and header 1900-01-01: 400 with -32022 naming the supported and requested versions', () =>
      expectError(PROBES.unsupportedVersion(), 400, {
        code: -32022,
        data: { supported: ['2026-07-28'], requested: '1900-01-01' },
      }));
    it('no MCP-Protocol-Version: 400 with -32020', () => expectError(PROBES.noVersionHeader(), 400, { code: -32020 }));
    it('no Mcp-Method: 400 with -32020', () => expectError(PROBES.noMethodHeader(), 400, { code: -32020 }));
    it('Mcp-Method tools/list with body server/discover: 400 with -32020', () =>
      expectError(PROBES.methodHeaderMismatch(), 400, { code: -32020 }));
    it('tools/bogus with a matching Mcp-Method: 404 with -32601', () =>
      expectError(PROBES.unknownMethod(), 404, { code: -32601 }));

    it('a request carrying Mcp-Session-Id: abc is served, and no session id comes back', async () => {
      const response = await sendProbe(PROBES.sessionId());
      expect(response.status).toBe(200);
      expect(response.headers['mcp-session-id']).toBeUndefined();
      expect(response.messages[0]).toMatchObject({ id: 8, result: { resultType: 'complete' } });
    });

    it('lists the same tools in the same order on every connection', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const first = await walkNames(server.url, agent);
        expect(first.flat()).toHaveLength(11);
        expect(await walkNames(server.url, agent)).toEqual(first);
        expect(await walkNames(server.url, false)).toEqual(first);
      } finally {
        agent.destroy();
      }
    });
  });

  describe('header validation', () => {
    const expectMismatch = async (body: Message, headers: Record<string, string>) => {
      const response = await send(body, headers);
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.messages[0]).toMatchObject({ id: body.id, error: { code: -32020, message: expect.any(String) } });
    };
    it('requires MCP-Protocol-Version and its match with the body', async () => {
      const body = rpc(1, 'tools/list');
      await expectMismatch(body, without(standardHeaders(body), 'MCP-Protocol-Version'));
      await expectMismatch(body, { ...standardHeaders(body), 'MCP-Protocol-Version': '2025-11-25' });
    });

    it('requires Mcp-Method and compares it case-sensitively', async () => {
      const body = rpc(1, 'tools/list');
      await expectMismatch(body, without(standardHeaders(body), 'Mcp-Method'));
      await expectMismatch(body, { ...standardHeaders(body), 'Mcp-Method': 'TOOLS/LIST' });
      await expectMismatch(body, { ...standardHeaders(body), 'Mcp-Method': 'tools/call' });
    });

    it('requires Mcp-Name on tools/call', async () => {
      const body = rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
      await expectMismatch(body, without(standardHeaders(body), 'Mcp-Name'));
      await expectMismatch(body, { ...standardHeaders(body), 'Mcp-Name': 'get_time' });
    });

    it('decodes the Base64 sentinel form of Mcp-Name', async () => {
      const body = rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
      const response = await send(body, {
        ...standardHeaders(body),
        'Mcp-Name': `=?base64?${Buffer.from('echo').toString('base64')}?=`,
      });
      expect(response.status).toBe(200);
      expect(response.messages[0]).toMatchObject({ result: { content: [{ type: 'text', text: 'x' }] } });
      await expectMismatch(body, { ...standardHeaders(body), 'Mcp-Name': '=?base64?not base64!?=' });
    });

    it('accepts header names in any case', async () => {
      const body = searchCall({ query: 'auth', region: 'us-west1' });
      const headers = Object.fromEntries(
        Object.entries({ ...standardHeaders(body), 'Mcp-Param-Region': 'us-west1' }).map(([k, v]) => [
          k.toUpperCase(),
          v,
        ]),
      );
      expect((await send(body, headers)).status).toBe(200);
    });

    it('requires Mcp-Param-Region when region is present and matches it exactly', async () => {
      const body = searchCall({ query: 'auth', region: 'us-west1' });
      await expectMismatch(body, standardHeaders(body));
      await expectMismatch(body, { ...standardHeaders(body), 'Mcp-Param-Region': 'us-east1' });
      await expectMismatch(body, { ...standardHeaders(body), 'Mcp-Param-Region': 'US-WEST1' });
      const ok = await send(body, { ...standardHeaders(body), 'mcp-param-region': 'us-west1' });
      expect(ok.status).toBe(200);
      expect((ok.messages[0] as Message).result.content[0].text).toContain('us-west1');
    });

    it('decodes a Base64-encoded Mcp-Param-Region', async () => {
      for (const region of ['Zürich 1', ' padded ', '=?base64?literal?=', 'us-west1']) {
        const body = searchCall({ query: 'auth', region });
        const sentinel = `=?base64?${Buffer.from(region, 'utf8').toString('base64')}?=`;
        expect((await send(body, { ...standardHeaders(body), 'Mcp-Param-Region': sentinel })).status, region).toBe(200);
        expect(
          (await send(body, { ...standardHeaders(body), 'Mcp-Param-Region': encodeHeaderValue(region) })).status,
          region,
        ).toBe(200);
      }
    });

    it('rejects invalid characters in Mcp-Param-Region', async () => {
      const body = searchCall({ query: 'auth', region: 'é' });
      await expectMismatch(body, {
        ...standardHeaders(body),
        'Mcp-Param-Region': Buffer.from('é', 'utf8').toString('latin1'),
      });
    });

    it('does not expect Mcp-Param-Region when region is absent or null', async () => {
      for (const args of [{ query: 'auth' }, { query: 'auth', region: null }]) {
        const response = await send(searchCall(args), standardHeaders(searchCall(args)));
        expect(response.status, JSON.stringify(args)).toBe(200);
      }
    });
  });

  it('streams the progress notification then the response as SSE when a progressToken is set', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 'p',
      method: 'tools/call',
      params: { _meta: meta({}, { progressToken: 7 }), name: 'get_time', arguments: {} },
    };
    const response = await send(body, standardHeaders(body));
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.text).toContain('event: message');
    expect(response.messages).toMatchObject([
      { method: 'notifications/progress', params: { progressToken: 7 } },
      { id: 'p', result: { resultType: 'complete' } },
    ]);
  });
});

describe('Streamable HTTP options and defects', () => {
  it('--sse answers every request as an event stream but keeps errors with 4xx as JSON', async () => {
    await withServer({ sse: true }, async (server) => {
      const body = rpc(1, 'tools/list');
      const response = await post(server.url, body, standardHeaders(body));
      expect(response.headers['content-type']).toBe('text/event-stream');
      expect(response.messages).toMatchObject([{ id: 1, result: { resultType: 'complete' } }]);
      const bad = await post(server.url, { ...body, params: {} }, standardHeaders(body));
      expect(bad.status).toBe(400);
      expect(bad.headers['content-type']).toBe('application/json');
    });
  });

  it('server-request sends roots/list on the first tools/list stream only', async () => {
    await withServer({ defects: ['server-request'] }, async (server) => {
      const body = rpc(1, 'tools/list');
      const first = await post(server.url, body, standardHeaders(body));
      expect(first.headers['content-type']).toBe('text/event-stream');
      expect(first.messages).toMatchObject([
        { jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' },
        { id: 1, result: {} },
      ]);
      const second = await post(server.url, body, standardHeaders(body));
      expect(second.messages).toHaveLength(1);
    });
  });

  it.each<[DefectName, () => Probe, number, Message]>([
    ['meta-not-required', PROBES.noMeta, 200, { id: 1, result: { resultType: 'complete' } }],
    ['meta-missing-200', PROBES.noMeta, 200, { id: 1, error: { code: -32602 } }],
    ['version-not-checked', PROBES.unsupportedVersion, 200, { id: 3, result: { resultType: 'complete' } }],
    [
      'version-error-200',
      PROBES.unsupportedVersion,
      200,
      { id: 3, error: { code: -32022, data: { requested: '1900-01-01' } } },
    ],
    ['protocol-header-optional', PROBES.noVersionHeader, 200, { id: 4, result: { resultType: 'complete' } }],
    [
      'protocol-header-mismatch-ignored',
      PROBES.headerVersionMismatch,
      200,
      { id: 2, result: { resultType: 'complete' } },
    ],
    ['method-header-optional', PROBES.noMethodHeader, 200, { id: 5, result: { resultType: 'complete' } }],
    [
      'method-header-mismatch-ignored',
      PROBES.methodHeaderMismatch,
      200,
      { id: 6, result: { supportedVersions: ['2026-07-28'] } },
    ],
    ['unknown-method-200', PROBES.unknownMethod, 200, { id: 7, error: { code: -32601 } }],
  ])('%s answers its probe with the deviation', async (defect, probe, status, message) => {
    await withServer({ defects: [defect] }, async (server) => {
      const { body, headers } = probe();
      const response = await post(server.url, body, headers);
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.messages).toHaveLength(1);
      expect(response.messages[0]).toMatchObject({ jsonrpc: '2.0', ...message });
    });
  });

  it('get-allowed answers GET and DELETE with 200 and {} as JSON, other methods still with 405', async () => {
    await withServer({ defects: ['get-allowed'] }, async (server) => {
      for (const method of ['GET', 'DELETE']) {
        const response = await post(server.url, '', { Accept: 'text/event-stream' }, method);
        expect(response.status, method).toBe(200);
        expect(response.headers['content-type'], method).toBe('application/json');
        expect(response.text, method).toBe('{}');
      }
      expect((await post(server.url, '', {}, 'PUT')).status).toBe(405);
      const body = rpc(1, 'tools/list');
      expect((await post(server.url, body, standardHeaders(body))).status).toBe(200);
    });
  });

  it('session-minted puts a fresh random Mcp-Session-Id on every response and still serves requests', async () => {
    await withServer({ defects: ['session-minted'] }, async (server) => {
      const { body, headers } = PROBES.sessionId();
      const responses = [
        await post(server.url, body, headers),
        await post(server.url, body, standardHeaders(body)),
        await post(server.url, PROBES.noMeta().body, PROBES.noMeta().headers),
        await post(
          server.url,
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
          { 'Content-Type': 'application/json' },
        ),
        await post(server.url, '', {}, 'GET'),
      ];
      expect(responses.map((response) => response.status)).toEqual([200, 200, 400, 202, 405]);
      const ids = responses.map((response) => response.headers['mcp-session-id']);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(new Set(ids).size).toBe(ids.length);
      expect(responses[0]!.messages[0]).toMatchObject({ id: 8, result: { resultType: 'complete' } });
    });
  });

  it('no-origin-check serves a foreign Origin; origin-rejected-400 rejects it with 400; both still serve local origins', async () => {
    const body = rpc(1, 'tools/list');
    const foreign = { ...standardHeaders(body), Origin: 'http://attacker.example' };
    const local = { ...standardHeaders(body), Origin: 'http://127.0.0.1:3000' };
    await withServer({ defects: ['no-origin-check'] }, async (server) => {
      expect((await post(server.url, body, foreign)).messages[0]).toMatchObject({
        id: 1,
        result: { resultType: 'complete' },
      });
      expect((await post(server.url, body, local)).status).toBe(200);
    });
    await withServer({ defects: ['origin-rejected-400'] }, async (server) => {
      const rejected = await post(server.url, body, foreign);
      expect(rejected.status).toBe(400);
      expect(rejected.messages[0]).toMatchObject({ error: { code: -32600 } });
      expect((await post(server.url, body, local)).status).toBe(200);
      expect((await post(server.url, body, standardHeaders(body))).status).toBe(200);
    });
  });

  it('header-names-case-sensitive counts an MCP header only under its canonical spelling; the clean server under any', async () => {
    const body = searchCall({ query: 'q', region: 'us-west1' });
    const canonical = { ...standardHeaders(body), 'Mcp-Param-Region': 'us-west1' };
    const recased = (change: (name: string) => string) =>
      Object.fromEntries(
        Object.entries(canonical).map(([name, value]) => [/^mcp-/i.test(name) ? change(name) : name, value]),
      );
    await withServer({ defects: ['header-names-case-sensitive'] }, async (server) => {
      expect((await post(server.url, body, canonical)).status).toBe(200);
      for (const change of [(n: string) => n.toUpperCase(), (n: string) => n.toLowerCase()]) {
        const answer = await post(server.url, body, recased(change));
        expect(answer.status).toBe(400);
        expect(answer.messages[0]).toMatchObject({ error: { code: -32020 } });
      }
    });
    await withServer({}, async (server) => {
      for (const change of [(n: string) => n.toUpperCase(), (n: string) => n.toLowerCase()]) {
        expect((await post(server.url, body, recased(change))).status).toBe(200);
      }
    });
  });

  it('no-x-accel-buffering leaves X-Accel-Buffering out of SSE responses, which the clean server sends', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 'p',
      method: 'tools/call',
      params: { _meta: meta({}, { progressToken: 7 }), name: 'get_time', arguments: {} },
    };
    for (const [defects, expected] of [
      [['no-x-accel-buffering'], undefined],
      [[], 'no'],
    ] as const) {
      await withServer({ defects: [...defects] }, async (server) => {
        const response = await post(server.url, body, standardHeaders(body));
        expect(response.headers['content-type']).toBe('text/event-stream');
        expect(response.headers['x-accel-buffering']).toBe(expected);
        expect(response.messages.at(-1)).toMatchObject({ id: 'p', result: { resultType: 'complete' } });
      });
    }
  });

  it('last-event-id-rejected answers a POST with Last-Event-ID 400/-32600; the clean server ignores the header', async () => {
    const body = rpc(9, 'tools/list');
    const headers = { ...standardHeaders(body), 'Last-Event-ID': '1' };
    await withServer({ defects: ['last-event-id-rejected'] }, async (server) => {
      const refused = await post(server.url, body, headers);
      expect(refused.status).toBe(400);
      expect(refused.messages[0]).toMatchObject({ id: 9, error: { code: -32600 } });
      expect((await post(server.url, body, standardHeaders(body))).status).toBe(200);
    });
    await withServer({}, async (server) => {
      const served = await post(server.url, body, headers);
      expect(served.status).toBe(200);
      expect(served.messages[0]).toMatchObject({ id: 9, result: { resultType: 'complete' } });
    });
  });

  it('error-as-text-plain labels JSON-RPC errors text/plain, results still application/json', async () => {
    await withServer({ defects: ['error-as-text-plain'] }, async (server) => {
      const error = await post(server.url, PROBES.noMeta().body, PROBES.noMeta().headers);
      expect(error.status).toBe(400);
      expect(error.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(JSON.parse(error.text)).toMatchObject({ error: { code: -32602 } });
      const body = rpc(1, 'tools/list');
      expect((await post(server.url, body, standardHeaders(body))).headers['content-type']).toBe('application/json');
    });
  });

  it('connection-scoped-tools names its extra tool after the client port: stable on one connection, new on another', async () => {
    await withServer({ defects: ['connection-scoped-tools'] }, async (server) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const kept = await walkNames(server.url, agent);
        const connectionTool = kept.at(-1)!.at(-1)!;
        expect(connectionTool).toMatch(/^conn_\d+$/);
        expect(kept.map((page) => page.length)).toEqual([4, 4, 4]);
        expect(await walkNames(server.url, agent)).toEqual(kept);
        const fresh = await walkNames(server.url, false);
        expect(fresh.slice(0, 2)).toEqual(kept.slice(0, 2));
        expect(fresh.at(-1)!.at(-1)).toMatch(/^conn_\d+$/);
        expect(fresh.at(-1)!.at(-1)).not.toBe(connectionTool);
      } finally {
        agent.destroy();
      }
    });
  });

  it('--tool-latency-ms answers tools/call late, and other requests on other connections meanwhile', async () => {
    await withServer({ toolLatencyMs: 300 }, async (server) => {
      const finished: string[] = [];
      const call = rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'late' } });
      const list = rpc(2, 'tools/list');
      await Promise.all([
        post(server.url, call, standardHeaders(call), 'POST', false).then(() => finished.push('call')),
        new Promise((resolve) => setTimeout(resolve, 20))
          .then(() => post(server.url, list, standardHeaders(list), 'POST', false))
          .then(() => finished.push('list')),
      ]);
      expect(finished).toEqual(['list', 'call']);
    });
  });

  it('shuffled-order changes the order within pages from walk to walk, across connections too', async () => {
    await withServer({ defects: ['shuffled-order'] }, async (server) => {
      const first = await walkNames(server.url, false);
      const second = await walkNames(server.url, false);
      const sorted = (walk: string[][]) => walk.map((page) => [...page].sort());
      expect(sorted(second)).toEqual(sorted(first));
      expect(second).not.toEqual(first);
    });
  });

  it('wrong-id-on-list answers tools/list under another id', async () => {
    await withServer({ defects: ['wrong-id-on-list'] }, async (server) => {
      const body = rpc(41, 'tools/list');
      const response = await post(server.url, body, standardHeaders(body));
      expect((response.messages[0] as Message).id).not.toBe(41);
      expect((response.messages[0] as Message).result.tools).toHaveLength(4);
    });
  });

  it('hang-on-list never answers tools/list but still answers other requests and closes', async () => {
    await withServer({ defects: ['hang-on-list'] }, async (server) => {
      const list = rpc(1, 'tools/list');
      let settled = false;
      const pending = post(server.url, list, standardHeaders(list)).then(
        () => (settled = true),
        () => (settled = true),
      );
      const discover = rpc(2, 'server/discover');
      expect((await post(server.url, discover, standardHeaders(discover))).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(settled).toBe(false);
      await server.close();
      await pending;
    });
  });
});

describe('Streamable HTTP of an initialize revision: sessions', () => {
  const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

  /** Opens a session offering `offered`; returns its id and the headers its later requests carry. */
  async function open(
    url: string,
    offered: string,
  ): Promise<{ id: string; headers: Record<string, string>; agreed: string }> {
    const answer = await post(url, initializeRequest(0, offered), JSON_HEADERS);
    expect(answer.status).toBe(200);
    const id = String(answer.headers['mcp-session-id']);
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    const agreed = (answer.messages[0] as Message).result.protocolVersion as string;
    const version = agreed >= '2025-06-18' ? { 'MCP-Protocol-Version': agreed } : {};
    return { id, agreed, headers: { ...JSON_HEADERS, 'Mcp-Session-Id': id, ...version } };
  }

  it('mints a session id on initialize; serves the session; 400 without an id, 404 for an unknown or ended one', async () => {
    await withServer({ revision: '2025-11-25' }, async (server) => {
      const session = await open(server.url, '2025-11-25');
      expect(session.agreed).toBe('2025-11-25');
      expect(
        (await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session.headers)).status,
      ).toBe(202);
      const listed = await post(server.url, legacyRpc(1, 'tools/list'), session.headers);
      expect(listed.status).toBe(200);
      expect((listed.messages[0] as Message).result.tools.length).toBeGreaterThan(0);
      const anonymous = await post(server.url, legacyRpc(2, 'tools/list'), JSON_HEADERS);
      expect(anonymous.status).toBe(400);
      expect(anonymous.messages[0]).toMatchObject({ id: 2, error: { code: -32600 } });
      expect(
        (
          await post(server.url, legacyRpc(3, 'tools/list'), {
            ...session.headers,
            'Mcp-Session-Id': 'no-such-session',
          })
        ).status,
      ).toBe(404);
      expect((await post(server.url, '', session.headers, 'DELETE')).status).toBe(200);
      expect((await post(server.url, legacyRpc(4, 'tools/list'), session.headers)).status).toBe(404);
      expect((await post(server.url, '', JSON_HEADERS, 'GET')).status).toBe(405);
    });
  });

  it('session-id-not-visible-ascii mints ids with spaces in them, and serves the session they name', async () => {
    await withServer({ revision: '2025-06-18', defects: ['session-id-not-visible-ascii'] }, async (server) => {
      const answer = await post(server.url, initializeRequest(0, '2025-06-18'), JSON_HEADERS);
      const id = String(answer.headers['mcp-session-id']);
      expect(id).toMatch(/^mtc session [0-9a-f-]{36}$/);
      const headers = { ...JSON_HEADERS, 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-06-18' };
      expect((await post(server.url, legacyRpc(1, 'tools/list'), headers)).status).toBe(200);
    });
  });

  it('each session agrees its own version; MCP-Protocol-Version (2025-06-18 on) must be the agreed one', async () => {
    await withServer({ revision: '2025-11-25' }, async (server) => {
      const newer = await open(server.url, '2025-11-25');
      const older = await open(server.url, '2025-03-26');
      expect(older.agreed).toBe('2025-03-26');
      const mismatch = await post(server.url, legacyRpc(1, 'ping'), {
        ...newer.headers,
        'MCP-Protocol-Version': '2025-06-18',
      });
      expect(mismatch.status).toBe(400);
      expect(mismatch.messages[0]).toMatchObject({
        id: 1,
        error: { code: -32600, message: expect.stringContaining('MCP-Protocol-Version') },
      });
      expect(
        (await post(server.url, legacyRpc(2, 'ping'), without(newer.headers, 'MCP-Protocol-Version'))).status,
      ).toBe(200);
      // 2025-03-26 has no such header: whatever it says, it is not read.
      expect(
        (await post(server.url, legacyRpc(3, 'ping'), { ...older.headers, 'MCP-Protocol-Version': '1999-01-01' }))
          .status,
      ).toBe(200);
      const tool = ((await post(server.url, legacyRpc(4, 'tools/list'), older.headers)).messages[0] as Message).result
        .tools[0];
      expect(Object.keys(tool).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name']);
    });
  });

  it('2025-03-26 receives batches: requests answered as one JSON array (an SSE event under --sse), notifications alone with 202', async () => {
    for (const sse of [false, true]) {
      await withServer({ revision: '2025-03-26', sse }, async (server) => {
        const session = await open(server.url, '2025-03-26');
        const answered = await post(
          server.url,
          [legacyRpc('a', 'ping'), legacyRpc('b', 'tools/list')],
          session.headers,
        );
        expect(answered.status).toBe(200);
        expect(answered.headers['content-type']).toBe(sse ? 'text/event-stream' : 'application/json');
        expect(answered.messages).toMatchObject([
          [
            { id: 'a', result: {} },
            { id: 'b', result: { tools: expect.any(Array) } },
          ],
        ]);
        const notifications = [1, 2].map((n) => ({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: `never-${n}` },
        }));
        const accepted = await post(server.url, notifications, session.headers);
        expect([accepted.status, accepted.text]).toEqual([202, '']);
      });
    }
  });

  it('get-stream-json answers a GET of a session 200 with {} as JSON, neither an event stream nor 405', async () => {
    await withServer({ revision: '2025-03-26', defects: ['get-stream-json'] }, async (server) => {
      const session = await open(server.url, '2025-03-26');
      const answer = await post(server.url, '', { ...session.headers, Accept: 'text/event-stream' }, 'GET');
      expect([answer.status, answer.headers['content-type'], answer.text]).toEqual([200, 'application/json', '{}']);
    });
  });

  it('accepted-202-as-200 accepts a single notification with 200 and no body', async () => {
    await withServer({ revision: '2025-06-18', defects: ['accepted-202-as-200'] }, async (server) => {
      const session = await open(server.url, '2025-06-18');
      const answer = await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session.headers);
      expect([answer.status, answer.text]).toEqual([200, '']);
    });
  });

  it('ended-session-404-served accepts a DELETE with 200 and keeps serving the session it named', async () => {
    await withServer({ revision: '2025-11-25', defects: ['ended-session-404-served'] }, async (server) => {
      const session = await open(server.url, '2025-11-25');
      expect((await post(server.url, '', session.headers, 'DELETE')).status).toBe(200);
      expect((await post(server.url, legacyRpc(1, 'ping'), session.headers)).status).toBe(200);
      expect(
        (await post(server.url, '', { ...session.headers, 'Mcp-Session-Id': 'no-such-session' }, 'DELETE')).status,
      ).toBe(404);
    });
  });

  it('notification-batch-answered answers a batch of notifications 200 with []; a batch of requests as the clean server does', async () => {
    await withServer({ revision: '2025-03-26', defects: ['notification-batch-answered'] }, async (server) => {
      const session = await open(server.url, '2025-03-26');
      const accepted = await post(
        server.url,
        [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x' } }],
        session.headers,
      );
      expect([accepted.status, accepted.text]).toEqual([200, '[]']);
      expect((await post(server.url, [legacyRpc('a', 'ping')], session.headers)).messages).toEqual([
        [{ jsonrpc: '2.0', id: 'a', result: {} }],
      ]);
    });
  });

  it('batch-rejected answers a batch with one -32600 error, over HTTP too', async () => {
    await withServer({ revision: '2025-03-26', defects: ['batch-rejected'] }, async (server) => {
      const session = await open(server.url, '2025-03-26');
      const rejected = await post(server.url, [legacyRpc('a', 'ping')], session.headers);
      expect(rejected.status).toBe(400);
      expect(rejected.messages).toEqual([
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: batches are not supported' } },
      ]);
    });
  });
});

describe('HTTP+SSE of 2024-11-05', () => {
  /** Opens the event stream: resolves once its endpoint event came; collects the message events after it. */
  function openStream(
    url: string,
  ): Promise<{ endpoint: string; messages: Message[]; waitFor(count: number): Promise<Message[]>; close(): void }> {
    return new Promise((resolve, reject) => {
      let request: ClientRequest | undefined = undefined;
      request = get(url, { headers: { Accept: 'text/event-stream' } }, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/event-stream');
        let buffered = '';
        const messages: Message[] = [];
        let endpoint: string | undefined;
        res.on('data', (chunk: Buffer) => {
          buffered += chunk.toString('utf8');
          const events = buffered.split('\n\n');
          buffered = events.pop()!;
          for (const event of events) {
            const type = /^event: (.*)$/m.exec(event)?.[1];
            const data = /^data: (.*)$/m.exec(event)?.[1] ?? '';
            if (type === 'endpoint' && endpoint === undefined) {
              endpoint = data;
              resolve({
                endpoint,
                messages,
                async waitFor(count) {
                  for (let i = 0; i < 200 && messages.length < count; i += 1)
                    await new Promise((r) => setTimeout(r, 5));
                  return messages;
                },
                close: () => request!.destroy(),
              });
            } else if (type === 'message') messages.push(JSON.parse(data) as Message);
          }
        });
      });
      request.on('error', reject);
    });
  }

  const JSON_HEADERS = { 'Content-Type': 'application/json' };

  it('a GET to /sse opens a session whose endpoint event names where to POST; POSTs get 202 and their answers come on the stream', async () => {
    await withServer({ revision: '2024-11-05' }, async (server) => {
      expect(server.url).toMatch(/\/sse$/);
      const stream = await openStream(server.url);
      expect(stream.endpoint).toMatch(/^\/messages\?sessionId=[\x21-\x7e]+$/);
      const endpoint = new URL(stream.endpoint, server.url).href;
      const accepted = await post(endpoint, initializeRequest(1, '2025-11-25'), JSON_HEADERS);
      expect([accepted.status, accepted.text]).toEqual([202, 'Accepted']);
      await post(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' }, JSON_HEADERS);
      await post(endpoint, legacyRpc(2, 'tools/list'), JSON_HEADERS);
      const [initialized, listed] = await stream.waitFor(2);
      expect(initialized).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05' } });
      expect(Object.keys(listed!.result.tools[0]).sort()).toEqual(['description', 'inputSchema', 'name']);
      stream.close();
    });
  });

  it('a POST to /sse is 405 (a client trying Streamable HTTP first falls back to the GET); an unknown session or path is 404', async () => {
    await withServer({ revision: '2024-11-05' }, async (server) => {
      expect((await post(server.url, initializeRequest(1, '2024-11-05'), JSON_HEADERS)).status).toBe(405);
      expect(
        (await post(new URL('/messages?sessionId=nope', server.url).href, legacyRpc(1, 'ping'), JSON_HEADERS)).status,
      ).toBe(404);
      expect((await post(new URL('/mcp', server.url).href, legacyRpc(1, 'ping'), JSON_HEADERS)).status).toBe(404);
    });
  });
});
