import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonRpcId } from '../../src/core/jsonrpc.js';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';
import { DEFECTS, formatDefectList, NO_DEFECTS, type DefectName } from './defects/index.js';
import { effectFile, keepNotesFile } from './effect-defects.js';
import { handleMessage } from './handler.js';
import type { HandlerContext } from './reply.js';
import { initializeRequest, legacyRpc, meta, rpc, standardHeaders, stdioContext } from './test-support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read at any depth by tests
type Message = Record<string, any>;

function exchange(ctx: HandlerContext, message: unknown): Message[] {
  const reply = handleMessage(message, ctx);
  if (reply.kind !== 'send') throw new Error(`expected messages, got ${reply.kind}`);
  return reply.messages as Message[];
}

const discover = (ctx: HandlerContext): Message => exchange(ctx, rpc('d', 'server/discover')).at(-1)!;

/** Every page of tools/list, following nextCursor at most `limit` times. */
function pages(ctx: HandlerContext, limit = 3): Message[] {
  const results: Message[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < limit; i += 1) {
    const response = exchange(ctx, rpc(`l${i}`, 'tools/list', cursor === undefined ? {} : { cursor })).at(-1)!;
    results.push(response);
    cursor = response.result?.nextCursor;
    if (cursor === undefined) break;
  }
  return results;
}

const callResult = (ctx: HandlerContext, name: string, args: Record<string, unknown>): Message =>
  exchange(ctx, rpc(1, 'tools/call', { name, arguments: args })).at(-1)!;

const lastPageNames = (ctx: HandlerContext): string[] =>
  pages(ctx, 5)
    .at(-1)!
    .result.tools.map((tool: Message) => tool.name);

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** The answer and its HTTP status, whatever the transport. */
function answer(ctx: HandlerContext, message: unknown): { status: number; response: Message } {
  const reply = handleMessage(message, ctx);
  if (reply.kind !== 'send') throw new Error(`expected messages, got ${reply.kind}`);
  return { status: reply.status, response: reply.messages.at(-1) as Message };
}

/**
 * Answers `message` as the HTTP transport would, with the standard headers for it changed by `change`
 * (lower-case names; undefined drops the header).
 */
function overHttp(ctx: HandlerContext, message: Message, change: Record<string, string | undefined> = {}) {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(standardHeaders(message as { method: string })))
    headers[name.toLowerCase()] = value;
  return answer({ ...ctx, transport: 'http', headers: { ...headers, ...change } }, message);
}

const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

const searchInRegion = (id: number) =>
  rpc(id, 'tools/call', { name: 'search_docs', arguments: { query: 'q', region: 'us-west1' } }) as Message;

const withVersion = (id: number, method: string, version: unknown) =>
  ({ jsonrpc: '2.0', id, method, params: { _meta: meta({}, { [VERSION_KEY]: version }) } }) as Message;

/** Requests whose _meta is missing or malformed, each of which a conforming server rejects with -32602. */
const MALFORMED_META: [string, Message][] = [
  ['no params', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
  ['no _meta', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }],
  [
    'no protocolVersion',
    { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { [CAPABILITIES_KEY]: {} } } },
  ],
  [
    'no clientCapabilities',
    { jsonrpc: '2.0', id: 4, method: 'server/discover', params: { _meta: { [VERSION_KEY]: '2026-07-28' } } },
  ],
  ['numeric protocolVersion', withVersion(5, 'tools/list', 20260728)],
  [
    'clientCapabilities a string',
    { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: meta({}, { [CAPABILITIES_KEY]: 'none' }) } },
  ],
];

const names = (page: Message): string[] => (page.result.tools as Message[]).map((tool) => tool.name as string);
const sorted = (items: string[]): string[] => [...items].sort();

/** Every tool the listing shows, all pages. */
const listed = (ctx: HandlerContext): Message[] => pages(ctx, 10).flatMap((page) => page.result.tools as Message[]);
const extra = (ctx: HandlerContext): Message => listed(ctx).at(-1)!;
const header = (ctx: HandlerContext, property: string): unknown =>
  extra(ctx).inputSchema.properties[property]['x-mcp-header'];

/** Opens subscriptions/listen; returns the acknowledgement and every message the stream gets afterwards. */
function listen(
  ctx: HandlerContext,
  id: JsonRpcId,
  notifications: Record<string, unknown>,
): { ack?: Message; stream: Message[] } {
  const reply = handleMessage(rpc(id, 'subscriptions/listen', { notifications }), ctx);
  if (reply.kind !== 'listen') throw new Error(`expected a listen stream, got ${reply.kind}`);
  const stream: Message[] = [];
  reply.open((message) => stream.push(message as Message));
  return { ack: reply.ack as Message | undefined, stream };
}

/** Runs `work` with $TMPDIR (where the annotation defects write) pointing at a fresh folder, removed afterwards. */
function inScratch(work: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-effects-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    work(dir);
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  }
}

const annotationsOf = (ctx: HandlerContext, name: string): Message =>
  listed(ctx).find((tool) => tool.name === name)!.annotations;
const lineCount = (path: string): number => readFileSync(path, 'utf8').trim().split('\n').length;

const toggleBeta = (ctx: HandlerContext) =>
  exchange(ctx, rpc(90, 'tools/call', { name: 'toggle_beta_tools', arguments: {} })).at(-1)!;
const SUBSCRIPTION_KEY = 'io.modelcontextprotocol/subscriptionId';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<DefectName, (ctx: HandlerContext) => void> = {
  'list-changed-on-list-stream': (ctx) => {
    expect(exchange(ctx, rpc(1, 'tools/list'))).toHaveLength(1);
    const reply = handleMessage(rpc(2, 'tools/list'), {
      ...ctx,
      transport: 'http',
      headers: lowerCased(standardHeaders(rpc(2, 'tools/list'))),
    });
    expect(reply).toMatchObject({
      kind: 'send',
      stream: true,
      messages: [{ method: 'notifications/tools/list_changed' }, { id: 2 }],
    });
  },
  'tools-change-after-call': (ctx) => {
    expect(listed(ctx).map((tool) => tool.name)).not.toContain('recent_calls');
    exchange(ctx, rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }));
    expect(listed(ctx).at(-1)!.name).toBe('recent_calls');
    expect(listed({ ...ctx, connection: 'another' }).map((tool) => tool.name)).not.toContain('recent_calls');
  },
  'listen-no-ack': (ctx) => {
    const { ack, stream } = listen(ctx, 7, { toolsListChanged: true });
    expect(ack).toBeUndefined();
    toggleBeta(ctx);
    expect(stream.map((m) => m.method)).toEqual(['notifications/tools/list_changed']);
  },
  'ack-superset': (ctx) => {
    expect(listen(ctx, 7, { toolsListChanged: true }).ack!.params.notifications).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
    });
  },
  'subscription-id-as-string': (ctx) => {
    const { ack, stream } = listen(ctx, 7, { toolsListChanged: true });
    expect(ack!.params._meta[SUBSCRIPTION_KEY]).toBe('7');
    toggleBeta(ctx);
    expect(stream[0]!.params._meta[SUBSCRIPTION_KEY]).toBe(7);
  },
  'no-list-changed-notification': (ctx) => {
    const { stream } = listen(ctx, 7, { toolsListChanged: true });
    toggleBeta(ctx);
    expect(listed(ctx).map((tool) => tool.name)).toContain('beta_forecast');
    expect(stream).toEqual([]);
  },
  'list-changed-to-all': (ctx) => {
    const subscriber = listen(ctx, 7, { toolsListChanged: true });
    const bystander = listen(ctx, 8, { promptsListChanged: true });
    toggleBeta(ctx);
    expect(subscriber.stream).toHaveLength(1);
    expect(bystander.stream.map((m) => [m.method, m.params._meta[SUBSCRIPTION_KEY]])).toEqual([
      ['notifications/tools/list_changed', 8],
    ]);
  },
  'no-discover': (ctx) => {
    expect(discover(ctx).error.code).toBe(-32601);
    expect(exchange(ctx, rpc(1, 'initialize')).at(-1)!.error.code).toBe(-32601);
    expect(pages(ctx)[0]!.result.tools).toHaveLength(4);
  },
  'supported-versions-omits-served': (ctx) => expect(discover(ctx).result.supportedVersions).toEqual(['2025-11-25']),
  'supported-versions-missing': (ctx) => {
    expect(discover(ctx).result).not.toHaveProperty('supportedVersions');
    expect(discover(ctx).result.resultType).toBe('complete');
  },
  'no-server-info': (ctx) => {
    expect(discover(ctx).result).not.toHaveProperty('_meta');
    expect(pages(ctx)[0]!.result._meta[SERVER_INFO_KEY]).toBeDefined();
  },
  'no-server-info-on-list': (ctx) => {
    for (const page of pages(ctx)) expect(page.result).not.toHaveProperty('_meta');
    expect(discover(ctx).result._meta[SERVER_INFO_KEY]).toBeDefined();
  },
  'no-tools-capability': (ctx) => {
    expect(discover(ctx).result.capabilities).toEqual({});
    expect(pages(ctx)[0]!.result.tools).toHaveLength(4);
  },
  'list-changed-not-boolean': (ctx) => expect(discover(ctx).result.capabilities.tools.listChanged).toBe('yes'),
  'no-result-type': (ctx) => {
    const [first, second, third] = pages(ctx);
    expect(first!.result.resultType).toBe('complete');
    expect(second!.result).not.toHaveProperty('resultType');
    expect(third!.result.resultType).toBe('complete');
  },
  'unknown-result-type': (ctx) => expect(discover(ctx).result.resultType).toBe('ok'),
  'no-cache-hints': (ctx) => {
    const all = pages(ctx);
    expect(all[0]!.result).toMatchObject({ ttlMs: 60000, cacheScope: 'public' });
    expect(all[2]!.result).not.toHaveProperty('ttlMs');
    expect(all[2]!.result).not.toHaveProperty('cacheScope');
  },
  'negative-ttl': (ctx) => expect(discover(ctx).result.ttlMs).toBe(-1),
  'mixed-cache-scope': (ctx) =>
    expect(pages(ctx).map((page) => page.result.cacheScope)).toEqual(['public', 'private', 'private']),
  'tools-not-array': (ctx) => {
    const all = pages(ctx);
    expect(all[1]!.result.tools).toEqual({});
    expect(all).toHaveLength(3);
  },
  'cursor-loop': (ctx) => {
    const all = pages(ctx, 5);
    expect(all).toHaveLength(5);
    expect(all[2]!.result.nextCursor).toBe(all[0]!.result.nextCursor);
    expect(all[3]!.result.tools).toEqual(all[1]!.result.tools);
  },
  'cursor-loop-fresh': (ctx) => {
    const all = pages(ctx, 7);
    expect(all).toHaveLength(7);
    const cursors = all.map((page) => page.result.nextCursor);
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(all[3]!.result.tools).toEqual(all[1]!.result.tools);
    expect(all[5]!.result.tools).toEqual(all[3]!.result.tools);
  },
  'duplicate-tool': (ctx) => {
    const all = pages(ctx);
    const last = all[2]!.result.tools as Message[];
    expect(last.at(-1)).toEqual(all[0]!.result.tools[0]);
  },
  'bad-jsonrpc-version': (ctx) => {
    expect(pages(ctx).map((page) => page.jsonrpc)).toEqual(['1.0', '1.0', '1.0']);
    expect(discover(ctx).jsonrpc).toBe('2.0');
  },
  'stdout-noise': (ctx) => {
    // Visible only on the stdio transport (see stdio.test.ts); the handler itself stays clean.
    expect(discover(ctx).result.resultType).toBe('complete');
  },
  'server-request': (ctx) => {
    expect(exchange(ctx, rpc(1, 'tools/list'))[0]).toEqual({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
    expect(exchange(ctx, rpc(2, 'tools/list'))).toHaveLength(1);
  },
  'legacy-sampling-unnegotiated': (ctx) => {
    exchange(
      ctx,
      legacyRpc(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { roots: {} },
        clientInfo: { name: 't', version: '1' },
      }),
    );
    const asked = handleMessage(legacyRpc(2, 'tools/list'), ctx);
    expect(asked).toMatchObject({ kind: 'ask', request: { id: 'srv-sampling-1', method: 'sampling/createMessage' } });
    const then = (asked as Extract<typeof asked, { kind: 'ask' }>).then();
    expect(then).toMatchObject({ kind: 'send', messages: [{ id: 2, result: { tools: expect.any(Array) } }] });
    expect(exchange(ctx, legacyRpc(3, 'tools/list'))).toHaveLength(1);
  },
  'structured-content-omitted': (ctx) => {
    exchange(ctx, initializeRequest(1, '2025-06-18'));
    const result = exchange(ctx, legacyRpc(2, 'tools/call', { name: 'add_numbers', arguments: { a: 1, b: 2 } })).at(
      -1,
    )!.result;
    expect(result).toEqual({ content: [{ type: 'text', text: '{"sum":3}' }] });
    expect(listed(ctx).find((tool) => tool.name === 'add_numbers')!.outputSchema).toBeDefined();
  },
  'version-negotiation-echo': (ctx) => {
    const offered = (version: string) => exchange(ctx, initializeRequest(1, version)).at(-1)!.result.protocolVersion;
    expect(offered('2000-01-01')).toBe('2000-01-01');
    expect(offered('2024-11-05')).toBe('2024-11-05');
  },
  'get-stream-json': (ctx) => {
    // The 200 with {} is the HTTP transport's (http.test.ts); the handler itself is untouched.
    expect(exchange(ctx, initializeRequest(1, '2025-03-26')).at(-1)!.result.protocolVersion).toBe('2025-03-26');
  },
  'accepted-202-as-200': (ctx) => {
    // The 200 is the HTTP transport's (http.test.ts); a notification is still answered with nothing.
    exchange(ctx, initializeRequest(1, '2025-06-18'));
    expect(handleMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }, ctx)).toEqual({ kind: 'none' });
  },
  'ended-session-404-served': (ctx) => {
    // The sessions are the HTTP transport's (http.test.ts); the handler itself is untouched.
    expect(exchange(ctx, initializeRequest(1, '2025-11-25')).at(-1)!.result.protocolVersion).toBe('2025-11-25');
  },
  'id-never-reused-ping-twice': (ctx) => {
    exchange(ctx, initializeRequest(1, '2024-11-05'));
    const ping = { jsonrpc: '2.0', id: 'srv-ping-1', method: 'ping' };
    expect(exchange(ctx, legacyRpc(2, 'tools/list')).slice(0, 2)).toEqual([ping, ping]);
    expect(exchange(ctx, legacyRpc(3, 'tools/list'))).toHaveLength(1);
  },
  'batch-rejected': (ctx) => {
    exchange(ctx, initializeRequest(1, '2025-03-26'));
    expect(exchange(ctx, [legacyRpc(2, 'ping'), legacyRpc(3, 'tools/list')])).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: batches are not supported' } },
    ]);
  },
  'notification-batch-answered': (ctx) => {
    // The 200 with [] is the HTTP transport's (http.test.ts); the batch itself is handled as a clean server does.
    exchange(ctx, initializeRequest(1, '2025-03-26'));
    expect(
      handleMessage([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x' } }], ctx),
    ).toEqual({ kind: 'batch', before: [], responses: [] });
  },
  'audio-content-on-2024-11-05': (ctx) => {
    exchange(ctx, initializeRequest(1, '2024-11-05'));
    const result = exchange(ctx, legacyRpc(2, 'tools/call', { name: 'get_logo', arguments: {} })).at(-1)!.result;
    expect(result.content.map((block: Message) => block.type)).toEqual(['image', 'text', 'audio']);
    expect(Buffer.from(result.content[2].data, 'base64').subarray(0, 4).toString()).toBe('RIFF');
  },
  'server-request-waits': (ctx) => {
    const asked = handleMessage(rpc(1, 'tools/list'), ctx);
    expect(asked).toMatchObject({ kind: 'ask', request: { id: 'srv-1', method: 'roots/list' } });
    expect((asked as Extract<typeof asked, { kind: 'ask' }>).then()).toMatchObject({
      kind: 'send',
      messages: [{ id: 1, result: { tools: expect.any(Array) } }],
    });
  },
  'bad-instructions': (ctx) => expect(discover(ctx).result.instructions).toBe(42),
  'tool-name-too-long': (ctx) => expect(extra(ctx).name).toHaveLength(129),
  'tool-name-with-space': (ctx) => expect(extra(ctx).name).toBe('get forecast'),
  'tool-title-not-string': (ctx) => expect(listed(ctx)[0]!.title).toBe(42),
  'tool-without-description': (ctx) => expect(listed(ctx)[1]).not.toHaveProperty('description'),
  'hidden-text-in-description': (ctx) => expect(listed(ctx)[1]!.description).toContain('docu\u200Bmentation'),
  'input-schema-not-object': (ctx) => expect(extra(ctx).inputSchema).toEqual({ type: 'string' }),
  'annotation-not-boolean': (ctx) => expect(listed(ctx)[0]!.annotations.readOnlyHint).toBe('yes'),
  'icon-sizes-not-array': (ctx) => expect(listed(ctx)[0]!.icons[0].sizes).toBe('48x48'),
  'icon-javascript-scheme': (ctx) => expect(listed(ctx)[0]!.icons[0].src).toMatch(/^javascript:/),
  'invalid-input-schema': (ctx) => expect(extra(ctx).inputSchema.properties.a.type).toBe('strng'),
  'invalid-output-schema': (ctx) => expect(extra(ctx).outputSchema.required).toBe('temperature'),
  'draft-07-schema': (ctx) => expect(extra(ctx).inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#'),
  'dangling-ref': (ctx) => expect(extra(ctx).inputSchema.properties.a.$ref).toBe('#/$defs/missing'),
  'external-ref': (ctx) => expect(extra(ctx).inputSchema.properties.a.$ref).toMatch(/^https:/),
  'xmcp-empty': (ctx) => expect(header(ctx, 'region')).toBe(''),
  'xmcp-not-token': (ctx) => expect(header(ctx, 'region')).toBe('My Region'),
  'xmcp-control-char': (ctx) => expect(header(ctx, 'region')).toMatch(/\r\n/),
  'xmcp-duplicate': (ctx) => expect([header(ctx, 'region'), header(ctx, 'zone')]).toEqual(['Region', 'REGION']),
  'xmcp-number': (ctx) => expect(extra(ctx).inputSchema.properties.ratio.type).toBe('number'),
  'xmcp-unsafe-integer': (ctx) => expect(extra(ctx).inputSchema.properties.shard.minimum).toBe(2 ** 60),
  'xmcp-unreachable': (ctx) => expect(extra(ctx).inputSchema.properties.tags.items['x-mcp-header']).toBe('Tag'),
  'xmcp-sensitive': (ctx) => expect(header(ctx, 'api_key')).toBe('Api-Key'),
  'python-style-pattern': (ctx) =>
    expect(listed(ctx).find((t) => t.name === 'get_weather')!.inputSchema.properties.location.pattern).toBe(
      '^(?P<city>.+)\\Z',
    ),
  'xmcp-property-named-default': (ctx) => {
    expect(header(ctx, 'default')).toBe('Default');
    expect(listed(ctx).at(-2)!.inputSchema.properties['x-mcp-header']).toMatchObject({ type: 'string' });
  },
  'shuffled-order': (ctx) => {
    const clean = pages(stdioContext()).map(names);
    const first = pages(ctx).map(names);
    const second = pages(ctx).map(names);
    expect(first.map(sorted)).toEqual(clean.map(sorted));
    expect(second.map(sorted)).toEqual(clean.map(sorted));
    expect(first[0]).toEqual([...clean[0]!.slice(1), clean[0]![0]]);
    // Each page is rotated by the running request count, so a page whose length divides it can come out unchanged.
    expect(
      first.filter((page, index) => JSON.stringify(page) !== JSON.stringify(second[index])).length,
    ).toBeGreaterThanOrEqual(2);
  },
  'connection-scoped-tools': (ctx) => {
    const all = pages(ctx);
    expect(all.map((page) => page.result.tools.length)).toEqual([4, 4, 4]);
    expect(all[2]!.result.tools.at(-1)).toMatchObject({
      name: `conn_${process.pid}`,
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: false, destructiveHint: false },
      description: expect.any(String),
    });
    expect(listed(ctx).map((tool) => tool.name)).toEqual(listed(ctx).map((tool) => tool.name));
    expect(extra({ ...ctx, connection: '54321' }).name).toBe('conn_54321');
  },
  'invalid-cursor-ignored': (ctx) => {
    const first = pages(ctx, 1)[0]!;
    const bogus = answer(ctx, rpc(1, 'tools/list', { cursor: '!!not-a-cursor!!' })).response;
    expect(bogus.result).toEqual(first.result);
    expect(answer(ctx, rpc(2, 'tools/list', { cursor: 7 })).response.error.code).toBe(-32602);
  },
  'meta-not-required': (ctx) => {
    for (const [label, message] of MALFORMED_META) {
      const { status, response } = answer(ctx, message);
      expect(response.result?.resultType, label).toBe('complete');
      expect(status, label).toBe(200);
    }
    const unsupported = answer(ctx, withVersion(7, 'tools/list', '1900-01-01'));
    expect(unsupported).toMatchObject({ status: 400, response: { error: { code: -32022 } } });
    expect(
      answer(ctx, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } })
        .response.result,
    ).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
  },
  'meta-missing-200': (ctx) => {
    for (const [label, message] of MALFORMED_META) {
      expect(answer(ctx, message), label).toMatchObject({
        status: 200,
        response: { id: message.id, error: { code: -32602 } },
      });
    }
    expect(answer(ctx, withVersion(7, 'tools/list', '1900-01-01')).status).toBe(400);
    expect(overHttp(ctx, rpc(8, 'tools/list'), { 'mcp-method': undefined }).status).toBe(400);
  },
  'version-not-checked': (ctx) => {
    for (const version of ['1900-01-01', '', 'latest']) {
      for (const method of ['tools/list', 'server/discover']) {
        const { status, response } = answer(ctx, withVersion(1, method, version));
        expect(response.result?.resultType, `${method} ${version}`).toBe('complete');
        expect(status).toBe(200);
      }
    }
    const mismatch = overHttp(ctx, withVersion(2, 'tools/list', '1900-01-01'));
    expect(mismatch).toMatchObject({ status: 400, response: { error: { code: -32020 } } });
    const agreed = overHttp(ctx, withVersion(3, 'tools/list', '1900-01-01'), { 'mcp-protocol-version': '1900-01-01' });
    expect(agreed).toMatchObject({ status: 200, response: { result: { resultType: 'complete' } } });
  },
  'version-error-200': (ctx) => {
    const { status, response } = overHttp(ctx, withVersion(1, 'tools/list', '1900-01-01'), {
      'mcp-protocol-version': '1900-01-01',
    });
    expect(status).toBe(200);
    expect(response.error).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '1900-01-01' },
    });
    expect(answer(ctx, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }).status).toBe(400);
  },
  'protocol-header-optional': (ctx) => {
    const served = overHttp(ctx, rpc(1, 'tools/list'), { 'mcp-protocol-version': undefined });
    expect(served).toMatchObject({ status: 200, response: { result: { resultType: 'complete' } } });
    const mismatch = overHttp(ctx, rpc(2, 'tools/list'), { 'mcp-protocol-version': '2025-11-25' });
    expect(mismatch).toMatchObject({ status: 400, response: { error: { code: -32020 } } });
  },
  'protocol-header-mismatch-ignored': (ctx) => {
    const served = overHttp(ctx, rpc(1, 'tools/list'), { 'mcp-protocol-version': '2025-11-25' });
    expect(served).toMatchObject({ status: 200, response: { result: { resultType: 'complete' } } });
    const missing = overHttp(ctx, rpc(2, 'tools/list'), { 'mcp-protocol-version': undefined });
    expect(missing).toMatchObject({ status: 400, response: { error: { code: -32020 } } });
    const bodyCounts = overHttp(ctx, withVersion(3, 'tools/list', '1900-01-01'));
    expect(bodyCounts).toMatchObject({
      status: 400,
      response: { error: { code: -32022, data: { requested: '1900-01-01' } } },
    });
  },
  'method-header-optional': (ctx) => {
    const served = overHttp(ctx, rpc(1, 'tools/list'), { 'mcp-method': undefined });
    expect(served).toMatchObject({ status: 200, response: { result: { resultType: 'complete' } } });
    const mismatch = overHttp(ctx, rpc(2, 'server/discover'), { 'mcp-method': 'tools/list' });
    expect(mismatch).toMatchObject({ status: 400, response: { error: { code: -32020 } } });
  },
  'method-header-mismatch-ignored': (ctx) => {
    const served = overHttp(ctx, rpc(1, 'server/discover'), { 'mcp-method': 'tools/list' });
    expect(served).toMatchObject({ status: 200, response: { result: { supportedVersions: ['2026-07-28'] } } });
    const missing = overHttp(ctx, rpc(2, 'tools/list'), { 'mcp-method': undefined });
    expect(missing).toMatchObject({ status: 400, response: { error: { code: -32020 } } });
  },
  'unknown-method-200': (ctx) => {
    expect(overHttp(ctx, rpc(1, 'tools/bogus'))).toMatchObject({
      status: 200,
      response: { id: 1, error: { code: -32601 } },
    });
    expect(answer(ctx, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }).status).toBe(400);
  },
  'get-allowed': (ctx) => {
    // Lives in the HTTP server, outside the handler (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'tools/bogus')).status).toBe(404);
  },
  'session-id-not-visible-ascii': (ctx) => {
    // Lives in the HTTP server's sessions, outside the handler (see http.test.ts); the handler itself stays clean.
    exchange(ctx, initializeRequest(1, '2025-06-18'));
    expect(exchange(ctx, legacyRpc(2, 'tools/list')).at(-1)!.result.tools.length).toBeGreaterThan(0);
  },
  'session-minted': (ctx) => {
    // Lives in the HTTP server, outside the handler (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'server/discover')).status).toBe(200);
  },
  'unknown-tool-is-error': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'nope', arguments: {} })).at(-1)!.result.isError).toBe(true),
  'malformed-arguments-accepted': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'get_time', arguments: [] })).at(-1)!.result.resultType).toBe(
      'complete',
    ),
  'unknown-tool-32002': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'nope', arguments: {} })).at(-1)!.error.code).toBe(-32002),
  'unknown-tool-32050': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'nope', arguments: {} })).at(-1)!.error.code).toBe(-32050),
  'unknown-tool-32001': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'nope', arguments: {} })).at(-1)!.error.code).toBe(-32001),
  'valid-args-rejected': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).at(-1)!.error.code).toBe(
      -32602,
    ),
  'structured-output-mismatch': (ctx) =>
    expect(
      exchange(ctx, rpc(1, 'tools/call', { name: 'get_weather', arguments: { location: 'Oslo' } })).at(-1)!.result
        .structuredContent.humidity,
    ).toMatch(/%$/),
  'no-text-mirror': (ctx) =>
    expect(
      exchange(ctx, rpc(1, 'tools/call', { name: 'add_numbers', arguments: { a: 1, b: 2 } })).at(-1)!.result.content[0]
        .text,
    ).toBe('The sum is 3.'),
  'invalid-args-succeed': (ctx) => {
    const result = exchange(ctx, rpc(1, 'tools/call', { name: 'get_time', arguments: { extra: 1 } })).at(-1)!.result;
    expect(result.isError).toBeUndefined();
  },
  'coerces-any-type': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'echo', arguments: { text: [] } })).at(-1)!.result).toMatchObject(
      { content: [{ type: 'text', text: '' }] },
    ),
  'irr-without-capability': (ctx) =>
    expect(
      exchange(ctx, rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } })).at(-1)!.result
        .resultType,
    ).toBe('input_required'),
  'missing-capability-no-data': (ctx) => {
    const error = exchange(ctx, rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } })).at(
      -1,
    )!.error;
    expect(error.code).toBe(-32021);
    expect(error.data).toBeUndefined();
  },
  'missing-capability-200': (ctx) => {
    const reply = handleMessage(rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } }), ctx);
    expect(reply).toMatchObject({ kind: 'send', status: 200 });
  },
  'retry-answer-rejected': (ctx) => {
    const caps = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const first = exchange(
      ctx,
      rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' }, _meta: caps }),
    ).at(-1)!.result;
    const retry = {
      name: 'confirm_action',
      arguments: { action: 'x' },
      _meta: caps,
      requestState: first.requestState,
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
    };
    expect(exchange(ctx, rpc(2, 'tools/call', retry)).at(-1)!.error.code).toBe(-32603);
  },
  'irr-empty': (ctx) => {
    const caps = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    expect(
      exchange(ctx, rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' }, _meta: caps })).at(-1)!
        .result,
    ).toEqual(expect.objectContaining({ resultType: 'input_required' }));
  },
  'param-header-always-rejected': (ctx) =>
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-param-region': 'us-west1' })).toMatchObject({
      status: 400,
      response: { error: { code: -32020 } },
    }),
  'param-header-not-required': (ctx) => expect(overHttp(ctx, searchInRegion(1))).toMatchObject({ status: 200 }),
  'param-header-not-compared': (ctx) =>
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-param-region': 'eu-north1' })).toMatchObject({ status: 200 }),
  'param-header-no-base64': (ctx) =>
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-param-region': '=?base64?dXMtd2VzdDE=?=' })).toMatchObject({
      status: 400,
    }),
  'name-header-optional': (ctx) =>
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-name': undefined, 'mcp-param-region': 'us-west1' })).toMatchObject({
      status: 200,
    }),
  'name-header-mismatch-ignored': (ctx) =>
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-name': 'echo', 'mcp-param-region': 'us-west1' })).toMatchObject({
      status: 200,
    }),
  'meta-key-empty-label': (ctx) => expect(listed(ctx)[0]!._meta).toEqual({ 'com..example/priority': 'high' }),
  'meta-key-bad-label': (ctx) => {
    const content = exchange(ctx, rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).at(-1)!.result
      .content as Message[];
    expect(content[0]).toMatchObject({ type: 'text', text: 'hi', _meta: { 'com.example-/source': 'echo' } });
  },
  'meta-key-bad-name': (ctx) =>
    expect(Object.keys(discover(ctx).result._meta)).toEqual([SERVER_INFO_KEY, 'com.example/_trace']),
  'extension-id-unprefixed': (ctx) => expect(discover(ctx).result.capabilities.extensions).toEqual({ tasks: {} }),
  'no-origin-check': (ctx) => {
    // Lives in the HTTP server, outside the handler (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'tools/list')).status).toBe(200);
  },
  'origin-rejected-400': (ctx) => {
    // Lives in the HTTP server, outside the handler (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'tools/list')).status).toBe(200);
  },
  'ignore-stdin-eof': (ctx) => {
    // Lives in the stdio loop, outside the handler (see stdio.test.ts); the handler itself stays clean.
    expect(discover(ctx).result.resultType).toBe('complete');
  },
  'error-as-text-plain': (ctx) => {
    // Lives in the HTTP server, outside the handler (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'tools/bogus')).status).toBe(404);
  },
  'rare-internal-error': (ctx) => {
    expect(lastPageNames(ctx)).toContain('format_label');
    expect(callResult(ctx, 'format_label', { style: 'code', text: '' }).error).toMatchObject({ code: -32603 });
    expect(callResult(ctx, 'format_label', { style: 'code', text: 'x' }).result.content[0].text).toBe('`x`');
    expect(callResult(ctx, 'format_label', { style: 'bold', text: '' }).result.isError).toBeUndefined();
  },
  'lenient-missing-required': (ctx) => {
    expect(callResult(ctx, 'lookup_code', { mode: 'lenient' }).result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'No code given: nothing looked up.' }],
    });
    expect(callResult(ctx, 'lookup_code', { mode: 'lenient' }).result.isError).toBeUndefined();
    expect(callResult(ctx, 'lookup_code', {}).result.isError).toBe(true);
    expect(callResult(ctx, 'lookup_code', { mode: 'strict' }).result.isError).toBe(true);
  },
  'rare-output-mismatch': (ctx) => {
    expect(callResult(ctx, 'text_stats', { text: 'a\nb', unit: 'lines' }).result.structuredContent).toEqual({
      count: '2 lines',
      unit: 'lines',
    });
    expect(callResult(ctx, 'text_stats', { text: 'a b', unit: 'words' }).result.structuredContent).toEqual({
      count: 2,
      unit: 'words',
    });
    expect(callResult(ctx, 'text_stats', { text: 'abc' }).result.structuredContent).toEqual({
      count: 3,
      unit: 'chars',
    });
  },
  'rare-integer-output-mismatch': (ctx) => {
    expect(callResult(ctx, 'offset_reading', { reading: 10, offset: -1 }).result.structuredContent).toEqual({
      value: '9.00',
    });
    expect(callResult(ctx, 'offset_reading', { reading: 10.5, offset: -1 }).result.structuredContent).toEqual({
      value: 9.5,
    });
    expect(callResult(ctx, 'offset_reading', { reading: 10, offset: 1 }).result.structuredContent).toEqual({
      value: 11,
    });
    expect(callResult(ctx, 'offset_reading', { reading: 4, offset: -1 }).result.structuredContent).toEqual({
      value: 3,
    });
  },
  'crash-on-rare-input': (ctx) => {
    expect(
      handleMessage(rpc(1, 'tools/call', { name: 'format_label', arguments: { style: 'code', text: '' } }), ctx),
    ).toMatchObject({ kind: 'send', messages: [], exitCode: 70 });
    expect(callResult(ctx, 'format_label', { style: 'plain', text: '' }).result.content[0].text).toBe('');
  },
  'hang-on-list': (ctx) => expect(handleMessage(rpc(1, 'tools/list'), ctx)).toEqual({ kind: 'hang' }),
  'hang-get-time': (ctx) => {
    expect(handleMessage(rpc(1, 'tools/call', { name: 'get_time', arguments: {} }), ctx)).toEqual({ kind: 'hang' });
    expect(callResult(ctx, 'echo', { text: 'hi' }).result.content[0].text).toBe('hi');
  },
  'exit-after-discover': (ctx) => {
    expect(handleMessage(rpc(1, 'server/discover'), ctx)).toMatchObject({ kind: 'send', exitCode: 1 });
    expect(handleMessage(rpc(2, 'tools/list'), ctx)).not.toHaveProperty('exitCode');
  },
  'garbage-on-list': (ctx) =>
    expect(handleMessage(rpc(1, 'tools/list'), ctx)).toEqual({ kind: 'raw', text: 'this is not json' }),
  'error-id-null': (ctx) => {
    const unknown = callResult(ctx, 'no_such_tool', {});
    expect(unknown.error).toBeDefined();
    expect(unknown.id).toBeNull();
    expect(callResult(ctx, 'echo', { text: 'hi' }).id).toBe(1);
    expect(exchange(ctx, rpc(3, 'tools/bogus')).at(-1)!.id).toBe(3);
  },
  'wrong-id-on-list': (ctx) => {
    const response = exchange(ctx, rpc(7, 'tools/list')).at(-1)!;
    expect(response.id).not.toBe(7);
    expect(response.result.tools).toHaveLength(4);
  },
  'tool-lookup-before-headers': (ctx) => {
    const unknown = rpc(1, 'tools/call', { name: 'nope', arguments: {} }) as Message;
    expect(overHttp(ctx, unknown, { 'mcp-name': undefined }).response.error).toMatchObject({ code: -32602 });
    expect(
      overHttp(ctx, searchInRegion(2), { 'mcp-name': undefined, 'mcp-param-region': 'us-west1' }).response.error,
    ).toMatchObject({ code: -32020 });
  },
  'no-read-only-hints': (ctx) => {
    const tools = listed(ctx);
    expect(tools.length).toBeGreaterThan(3);
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint !== undefined)).toEqual([]);
  },
  'region-pattern': (ctx) => {
    const region = listed(ctx).find((tool) => tool.name === 'search_docs')!.inputSchema.properties.region;
    expect(region).toMatchObject({ pattern: '^[a-z]{2}-[a-z]+-[0-9]$', 'x-mcp-header': 'Region' });
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-param-region': 'us-west1' })).toMatchObject({
      status: 400,
      response: { error: { code: -32602 } },
    });
    expect(callResult(ctx, 'search_docs', { query: 'q', region: 'eu-central-1' }).result.isError).toBeUndefined();
  },
  'region-refused': (ctx) => {
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-param-region': 'us-west1' })).toMatchObject({
      status: 400,
      response: { error: { code: -32602 } },
    });
    expect(callResult(ctx, 'search_docs', { query: 'q', region: 'eu-central-1' }).result.isError).toBeUndefined();
  },
  'param-header-expected-for-null': (ctx) => {
    const withNull = rpc(1, 'tools/call', { name: 'search_docs', arguments: { query: 'q', region: null } }) as Message;
    expect(overHttp(ctx, withNull)).toMatchObject({ status: 400, response: { error: { code: -32020 } } });
    // The clean server leaves null to the tool's input validation (an isError result): there is no header to expect.
    expect(overHttp(stdioContext(), withNull)).toMatchObject({ status: 200, response: { result: { isError: true } } });
    const absent = rpc(2, 'tools/call', { name: 'search_docs', arguments: { query: 'q' } }) as Message;
    expect(overHttp(ctx, absent)).toMatchObject({ status: 200 });
  },
  'header-names-case-sensitive': (ctx) => {
    // Lives in the HTTP server, which reads the raw header names (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-param-region': 'us-west1' }).status).toBe(200);
  },
  'param-header-chars-unchecked': (ctx) => {
    const zurich = rpc(1, 'tools/call', {
      name: 'search_docs',
      arguments: { query: 'q', region: 'Zürich' },
    }) as Message;
    // Node hands header bytes over as ISO-8859-1: the raw bytes 5A FC 72 69 63 68 read as "Zürich".
    expect(overHttp(ctx, zurich, { 'mcp-param-region': 'Zürich' })).toMatchObject({ status: 200 });
    expect(overHttp(stdioContext(), zurich, { 'mcp-param-region': 'Zürich' })).toMatchObject({
      status: 400,
      response: { error: { code: -32020 } },
    });
    expect(overHttp(ctx, zurich, { 'mcp-param-region': '=?base64?WsO8cmljaA==?=' })).toMatchObject({ status: 200 });
  },
  'request-state-tamper-hang': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    const truncated = first.requestState.slice(0, Math.floor(first.requestState.length / 2));
    expect(
      handleMessage(rpc(2, 'tools/call', confirmCall({ requestState: truncated, inputResponses: ACCEPTED })), ctx).kind,
    ).toBe('hang');
    expect(
      handleMessage(
        rpc(2, 'tools/call', confirmCall({ requestState: truncated, inputResponses: ACCEPTED })),
        stdioContext(),
      ).kind,
    ).toBe('send');
    expect(
      exchange(
        ctx,
        rpc(3, 'tools/call', confirmCall({ requestState: first.requestState, inputResponses: ACCEPTED })),
      ).at(-1)!.result.resultType,
    ).toBe('complete');
  },
  'log-without-level': (ctx) => {
    const [log, response] = exchange(ctx, rpc(1, 'tools/call', { name: 'get_time', arguments: {} }));
    expect(log).toMatchObject({ method: 'notifications/message', params: { level: 'error' } });
    expect(response!.result.resultType).toBe('complete');
  },
  'log-below-level': (ctx) => {
    const asking = rpc(1, 'tools/call', {
      name: 'get_time',
      arguments: {},
      _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'warning' }),
    });
    expect(exchange(ctx, asking)[0]).toMatchObject({ method: 'notifications/message', params: { level: 'debug' } });
    expect(exchange(ctx, rpc(2, 'tools/call', { name: 'get_time', arguments: {} }))).toHaveLength(1);
  },
  'log-without-capability': (ctx) => {
    const asking = rpc(1, 'tools/call', {
      name: 'get_time',
      arguments: {},
      _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'warning' }),
    });
    expect(exchange(ctx, asking)[0]).toMatchObject({ method: 'notifications/message', params: { level: 'warning' } });
    expect(exchange(ctx, rpc(2, 'tools/call', { name: 'get_time', arguments: {} }))).toHaveLength(1);
    expect(discover(ctx).result.capabilities).not.toHaveProperty('logging');
  },
  'log-on-listen': (ctx) => {
    const reply = handleMessage(rpc(1, 'subscriptions/listen', { notifications: { toolsListChanged: true } }), {
      ...ctx,
      transport: 'http',
    });
    if (reply.kind !== 'listen') throw new Error(`expected a listen stream, got ${reply.kind}`);
    const sent: Message[] = [];
    reply.open((message) => sent.push(message as Message));
    expect(sent[0]).toMatchObject({ method: 'notifications/message', params: { level: 'info' } });
  },
  'log-level-unchecked': (ctx) => {
    const verbose = rpc(1, 'tools/list', { _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'verbose' }) });
    expect(exchange(ctx, verbose).at(-1)!.result.resultType).toBe('complete');
    expect(exchange(stdioContext(), verbose).at(-1)!.error.code).toBe(-32602);
  },
  'progress-token-as-number': (ctx) => {
    const withToken = rpc(1, 'tools/call', {
      name: 'get_time',
      arguments: {},
      _meta: meta({}, { progressToken: '9017' }),
    });
    expect(exchange(ctx, withToken)[0]!.params.progressToken).toBe(9017);
  },
  'progress-not-increasing': (ctx) => {
    const withToken = rpc(1, 'tools/call', {
      name: 'get_time',
      arguments: {},
      _meta: meta({}, { progressToken: 't' }),
    });
    expect(
      exchange(ctx, withToken)
        .slice(0, 2)
        .map((m) => m.params.progress),
    ).toEqual([1, 1]);
  },
  'progress-after-response': (ctx) => {
    const withToken = rpc(1, 'tools/call', {
      name: 'get_time',
      arguments: {},
      _meta: meta({}, { progressToken: 't' }),
    });
    expect(exchange(ctx, withToken).map((m) => m.method ?? 'response')).toEqual([
      'notifications/progress',
      'response',
      'notifications/progress',
    ]);
  },
  'answer-after-cancel': (ctx) => {
    // Lives in the stdio loop, which holds get_time's answer and ignores the cancellation; the handler itself stays
    // clean.
    expect(callResult(ctx, 'get_time', {}).result.resultType).toBe('complete');
  },
  'progress-after-cancel': (ctx) => {
    // Lives in the stdio loop (stdio.test.ts), which holds the call's answer and still reports progress once it is
    // cancelled.
    const withToken = rpc(1, 'tools/call', {
      name: 'get_time',
      arguments: {},
      _meta: meta({}, { progressToken: 't' }),
    });
    expect(exchange(ctx, withToken).map((m) => m.method ?? 'response')).toEqual(['notifications/progress', 'response']);
  },
  'log-after-cancel': (ctx) => {
    // Lives in the stdio loop (stdio.test.ts), which holds the call's answer and logs the cancellation to the client.
    const asking = rpc(1, 'tools/call', {
      name: 'get_time',
      arguments: {},
      _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'warning' }),
    });
    expect(exchange(ctx, asking).map((m) => m.method ?? 'response')).toEqual(['response']);
  },
  'cancel-call-notification': (ctx) => {
    expect(exchange(ctx, rpc(7, 'tools/call', { name: 'get_time', arguments: {} })).at(-1)).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: 7 },
    });
  },
  'answer-notification': (ctx) => {
    const reply = handleMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }, ctx);
    expect(reply).toMatchObject({ kind: 'send', messages: [{ error: { code: -32602 } }] });
    expect(handleMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }, stdioContext()).kind).toBe(
      'none',
    );
  },
  'capabilities-remembered': (ctx) => {
    exchange(ctx, rpc(1, 'tools/call', confirmCall()));
    const without = exchange(ctx, rpc(2, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } })).at(-1)!;
    expect(without.result.resultType).toBe('input_required');
  },
  'unknown-tool-32020': (ctx) => expect(callResult(ctx, 'no_such_tool', {}).error.code).toBe(-32020),
  'unknown-tool-32500': (ctx) => expect(callResult(ctx, 'no_such_tool', {}).error.code).toBe(-32500),
  'task-result-unnegotiated': (ctx) => {
    expect(discover(ctx).result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(callResult(ctx, 'get_time', {}).result.resultType).toBe('task');
  },
  'interim-result-cache-hints': (ctx) => {
    expect(exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result).toMatchObject({
      resultType: 'input_required',
      ttlMs: 60000,
      cacheScope: 'private',
    });
  },
  'client-info-unlocks-tool': (ctx) => {
    const asHost = {
      _meta: meta({}, { 'io.modelcontextprotocol/clientInfo': { name: 'claude-ai', version: '1.0.0' } }),
    };
    let cursor: string | undefined;
    const tools: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const page = exchange(ctx, rpc(`p${i}`, 'tools/list', cursor === undefined ? asHost : { ...asHost, cursor })).at(
        -1,
      )!.result;
      tools.push(...page.tools.map((tool: Message) => tool.name));
      cursor = page.nextCursor;
      if (cursor === undefined) break;
    }
    expect(tools).toContain('host_diagnostics');
    expect(listed(ctx).map((tool) => tool.name)).not.toContain('host_diagnostics');
  },
  'bad-traceparent': (ctx) => expect(pages(ctx)[0]!.result._meta.traceparent).toBe('00-trace-1-01'),
  'initialize-error-unnamed': (ctx) =>
    expect(exchange(ctx, rpc(1, 'initialize')).at(-1)!.error.message).toBe('Method not found: initialize'),
  'embedded-resource-undeclared': (ctx) => {
    expect(callResult(ctx, 'get_time', {}).result.content.at(-1)).toMatchObject({
      type: 'resource',
      resource: { uri: 'clock://utc' },
    });
    expect(discover(ctx).result.capabilities.resources).toBeUndefined();
  },
  'cursor-single-use': (ctx) => {
    const cursor = pages(ctx, 1)[0]!.result.nextCursor;
    expect(exchange(ctx, rpc(1, 'tools/list', { cursor })).at(-1)!.result.tools.length).toBeGreaterThan(0);
    expect(exchange(ctx, rpc(2, 'tools/list', { cursor })).at(-1)!.error.code).toBe(-32602);
  },
  'request-state-per-connection': (ctx) => {
    const first = exchange({ ...ctx, connection: 'a' }, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    const retry = rpc(2, 'tools/call', confirmCall({ requestState: first.requestState, inputResponses: ACCEPTED }));
    expect(exchange({ ...ctx, connection: 'b' }, retry).at(-1)!.error.code).toBe(-32602);
    expect(exchange({ ...ctx, connection: 'a' }, retry).at(-1)!.result.resultType).toBe('complete');
  },
  'digit-string-id-as-number': (ctx) => {
    expect(exchange(ctx, rpc('900000007', 'tools/list')).at(-1)!.id).toBe(900000007);
    expect(exchange(ctx, rpc('abc', 'tools/list')).at(-1)!.id).toBe('abc');
  },
  'request-state-unverified': (ctx) => {
    const result = exchange(
      ctx,
      rpc(1, 'tools/call', confirmCall({ requestState: 'forged', inputResponses: ACCEPTED })),
    ).at(-1)!.result;
    expect(result.content[0].text).toMatch(/^Confirmed/);
  },
  'elicit-url-mode-undeclared': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    expect(first.inputRequests.confirm.params.mode).toBe('url');
  },
  're-request-error': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    expect(
      exchange(ctx, rpc(2, 'tools/call', confirmCall({ requestState: first.requestState }))).at(-1)!.error.code,
    ).toBe(-32602);
  },
  'extra-input-response-rejected': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    const retry = confirmCall({
      requestState: first.requestState,
      inputResponses: { ...ACCEPTED, other: { action: 'decline' } },
    });
    expect(exchange(ctx, rpc(2, 'tools/call', retry)).at(-1)!.error.code).toBe(-32602);
  },
  'input-responses-unvalidated': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    const retry = confirmCall({ requestState: first.requestState, inputResponses: 'not an object' });
    expect(exchange(ctx, rpc(2, 'tools/call', retry)).at(-1)!.result.resultType).toBe('input_required');
  },
  'no-x-accel-buffering': (ctx) => {
    // Lives in the HTTP server, which writes the SSE headers (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'tools/list')).status).toBe(200);
  },
  'last-event-id-rejected': (ctx) => {
    // Lives in the HTTP server, which reads Last-Event-ID (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'tools/list')).status).toBe(200);
  },
  'method-header-case-insensitive': (ctx) => {
    expect(overHttp(ctx, rpc(1, 'tools/list'), { 'mcp-method': 'TOOLS/LIST' })).toMatchObject({
      status: 200,
      response: { result: { resultType: 'complete' } },
    });
    expect(overHttp(stdioContext(), rpc(2, 'tools/list'), { 'mcp-method': 'TOOLS/LIST' })).toMatchObject({
      status: 400,
      response: { error: { code: -32020 } },
    });
    expect(overHttp(ctx, rpc(3, 'tools/list'), { 'mcp-method': 'server/discover' })).toMatchObject({
      status: 400,
      response: { error: { code: -32020 } },
    });
  },
  'read-only-writes': (ctx) =>
    inScratch(() => {
      expect(annotationsOf(ctx, 'search_docs').readOnlyHint).toBe(true);
      expect(callResult(ctx, 'search_docs', { query: 'auth' }).result.isError).toBeUndefined();
      callResult(ctx, 'search_docs', { query: 'limits' });
      expect(readFileSync(effectFile('searchHistory'), 'utf8')).toMatch(/"auth"\n.*"limits"\n$/);
    }),
  'non-destructive-deletes': (ctx) =>
    inScratch(() => {
      expect(annotationsOf(ctx, 'create_note')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      keepNotesFile(ctx.defects);
      expect(readFileSync(effectFile('notes'), 'utf8')).toBe('[]\n');
      expect(callResult(ctx, 'create_note', { title: 'groceries' }).result.isError).toBeUndefined();
      expect(existsSync(effectFile('notes'))).toBe(false);
    }),
  'idempotent-appends': (ctx) =>
    inScratch(() => {
      expect(annotationsOf(ctx, 'delete_note')).toMatchObject({ readOnlyHint: false, idempotentHint: true });
      for (const id of [1, 2]) {
        expect(
          exchange(ctx, rpc(id, 'tools/call', { name: 'delete_note', arguments: { id: 'x' } })).at(-1)!.result.isError,
        ).toBeUndefined();
      }
      expect(lineCount(effectFile('deletions'))).toBe(2);
    }),
  'latin1-response': (ctx) => {
    // Lives in the stdio server, which encodes the line (see stdio.test.ts); the handler itself stays clean.
    expect(discover(ctx).result.instructions).not.toMatch(/caf/);
  },
};

const ACCEPTED = { confirm: { action: 'accept', content: { ok: true } } };

/** A confirm_action call declaring form-mode elicitation only, with `extra` params (requestState, inputResponses). */
function confirmCall(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const caps = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  };
  return { name: 'confirm_action', arguments: { action: 'x' }, _meta: caps, ...extra };
}

describe('defect catalogue', () => {
  it('has a deviation test for every defect, and unique names', () => {
    expect(Object.keys(DEVIATIONS).sort()).toEqual(DEFECTS.map((defect) => defect.name).sort());
    expect(new Set(DEFECTS.map((defect) => defect.name)).size).toBe(DEFECTS.length);
  });

  it('names a check for every defect except chaos behaviours and conforming variants', () => {
    for (const defect of DEFECTS) {
      expect(defect.breaks === null, defect.name).toBe(defect.chaos === true || defect.conforming === true);
    }
  });

  it('lists NAME<TAB>CHECK-ID<TAB>description for every defect', () => {
    const lines = formatDefectList().split('\n');
    expect(lines).toHaveLength(DEFECTS.length);
    for (const [index, defect] of DEFECTS.entries()) {
      expect(lines[index]!.split('\t')).toEqual([defect.name, defect.breaks ?? '-', defect.description]);
    }
  });
});

describe('each defect shows its deviation', () => {
  it.each(DEFECTS.map((defect) => [defect.name, defect.revision] as const))('%s', (name, revision) => {
    DEVIATIONS[name](stdioContext([name], revision));
  });
});

describe('clean behaviour where defects act', () => {
  it('has none of the deviations without defects', () => {
    const ctx = stdioContext();
    const result = discover(ctx).result;
    expect(result).toMatchObject({
      resultType: 'complete',
      ttlMs: 60000,
      instructions: expect.any(String),
      capabilities: { tools: { listChanged: true } },
    });
    expect(result.capabilities.extensions).toBeUndefined();
    expect(Object.keys(result._meta)).toEqual([SERVER_INFO_KEY]);
    const all = pages(ctx, 5);
    expect(all).toHaveLength(3);
    expect(all.every((page) => page.jsonrpc === '2.0' && page.id.startsWith('l'))).toBe(true);
    expect(exchange(ctx, rpc(1, 'tools/list'))).toHaveLength(1);
    for (const name of ['format_label', 'lookup_code', 'text_stats'])
      expect(callResult(ctx, name, {}).error.code).toBe(-32602);
  });

  it('writes no file: search_docs, create_note and delete_note keep to memory, and a missing note is a tool error', () =>
    inScratch((dir) => {
      const ctx = stdioContext();
      keepNotesFile(NO_DEFECTS);
      callResult(ctx, 'search_docs', { query: 'auth' });
      callResult(ctx, 'create_note', { title: 'groceries' });
      expect(callResult(ctx, 'delete_note', { id: 'note-1' }).result.isError).toBeUndefined();
      expect(callResult(ctx, 'delete_note', { id: 'note-1' }).result.isError).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
      expect(existsSync(effectFile('notes'))).toBe(false);
    }));

  it('keeps the tool order and set across walks, connections and bad cursors', () => {
    const ctx = stdioContext();
    const first = pages(ctx).map(names);
    expect(pages(ctx).map(names)).toEqual(first);
    expect(pages({ ...ctx, connection: '54321' }).map(names)).toEqual(first);
    expect(first.flat()).toHaveLength(11);
    expect(first.flat().some((name) => name.startsWith('conn_'))).toBe(false);
    expect(answer(ctx, rpc(1, 'tools/list', { cursor: '!!not-a-cursor!!' })).response.error.code).toBe(-32602);
  });

  it('acknowledges a subscription, tells it of tool-set changes, and stops after notifications/cancelled', () => {
    const ctx = stdioContext();
    const subscriber = listen(ctx, 'listen-1', { toolsListChanged: true });
    const bystander = listen(ctx, 8, { promptsListChanged: true, resourceSubscriptions: ['file:///x'] });
    expect(subscriber.ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION_KEY]: 'listen-1' }, notifications: { toolsListChanged: true } },
    });
    expect(bystander.ack!.params.notifications).toEqual({});
    expect(toggleBeta(ctx).result.content[0].text).toBe('beta tools are now on');
    expect(listed(ctx).map((tool) => tool.name)).toContain('beta_forecast');
    expect(subscriber.stream).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { [SUBSCRIPTION_KEY]: 'listen-1' } },
      },
    ]);
    expect(bystander.stream).toEqual([]);
    handleMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } }, ctx);
    toggleBeta(ctx);
    expect(listed(ctx).map((tool) => tool.name)).not.toContain('beta_forecast');
    expect(subscriber.stream).toHaveLength(1);
  });

  it('rejects a subscriptions/listen without a notifications object, and beta_forecast while it is not listed', () => {
    const ctx = stdioContext();
    expect(answer(ctx, rpc(1, 'subscriptions/listen')).response.error.code).toBe(-32602);
    expect(
      answer(ctx, rpc(2, 'subscriptions/listen', { notifications: { toolsListChanged: 'yes' } })).response.error.code,
    ).toBe(-32602);
    expect(answer(ctx, rpc(3, 'tools/call', { name: 'beta_forecast', arguments: {} })).response.error.code).toBe(
      -32602,
    );
  });

  it.each(MALFORMED_META)('rejects %s with -32602 and 400', (_label, message) => {
    expect(answer(stdioContext(), message)).toMatchObject({
      status: 400,
      response: { id: message.id, error: { code: -32602 } },
    });
  });

  it('rejects unsupported versions and header problems with 400, unknown methods with 404', () => {
    const ctx = stdioContext();
    const unsupported = overHttp(ctx, withVersion(1, 'tools/list', '1900-01-01'), {
      'mcp-protocol-version': '1900-01-01',
    });
    expect(unsupported).toMatchObject({ status: 400, response: { error: { code: -32022 } } });
    for (const change of [
      { 'mcp-protocol-version': undefined },
      { 'mcp-protocol-version': '2025-11-25' },
      { 'mcp-method': undefined },
      { 'mcp-method': 'server/discover' },
    ]) {
      expect(overHttp(ctx, rpc(2, 'tools/list'), change), JSON.stringify(change)).toMatchObject({
        status: 400,
        response: { error: { code: -32020 } },
      });
    }
    expect(overHttp(ctx, rpc(3, 'tools/bogus'))).toMatchObject({ status: 404, response: { error: { code: -32601 } } });
  });
});

describe('command line parsing', () => {
  it('collects repeated defects', () => {
    expect(parseCliArgs(['--http', '--port', '8123', '--defect', 'no-discover', '--defect=negative-ttl'])).toEqual({
      kind: 'serve',
      transport: 'http',
      port: 8123,
      sse: false,
      protocolVersion: '2026-07-28',
      defects: new Set(['no-discover', 'negative-ttl']),
      latency: {},
    });
  });

  it('takes --protocol-version, which a defect of an initialize revision needs (that revision or a newer initialize one)', () => {
    expect(
      parseCliArgs(['--protocol-version', '2025-11-25', '--defect', 'legacy-sampling-unnegotiated']),
    ).toMatchObject({
      kind: 'serve',
      transport: 'stdio',
      protocolVersion: '2025-11-25',
      defects: new Set(['legacy-sampling-unnegotiated']),
    });
    expect(parseCliArgs(['--http', '--protocol-version=2025-11-25', '--defect', 'batch-rejected'])).toMatchObject({
      kind: 'serve',
      protocolVersion: '2025-11-25',
    });
    expect(parseCliArgs(['--defect', 'legacy-sampling-unnegotiated'])).toEqual({
      kind: 'error',
      message:
        'defect "legacy-sampling-unnegotiated" breaks a rule of MCP 2025-11-25: it needs --protocol-version ' +
        '2025-11-25 (or a newer initialize revision)',
    });
    expect(parseCliArgs(['--protocol-version', '2025-06-18', '--defect', 'legacy-sampling-unnegotiated']).kind).toBe(
      'error',
    );
    expect(parseCliArgs(['--protocol-version', '2025-01-01'])).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05'),
    });
    expect(parseCliArgs(['--http', '--protocol-version', '2024-11-05'])).toMatchObject({
      kind: 'serve',
      transport: 'http',
      protocolVersion: '2024-11-05',
    });
    expect(parseCliArgs(['--http', '--sse', '--protocol-version', '2024-11-05'])).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('--sse is for Streamable HTTP'),
    });
  });

  it('takes the self-test flags', () => {
    expect(parseCliArgs(['--http', '--log-arrivals', '/tmp/a.log', '--rate-limit-once=3'])).toMatchObject({
      kind: 'serve',
      arrivalLog: '/tmp/a.log',
      rateLimitOnce: 3,
    });
  });

  it('takes the benchmark latency, and leaves 0 out', () => {
    expect(parseCliArgs(['--tool-latency-ms', '25'])).toMatchObject({
      kind: 'serve',
      transport: 'stdio',
      latency: { toolLatencyMs: 25 },
    });
    expect(parseCliArgs(['--error-latency-ms', '500', '--tool-latency-ms', '5'])).toMatchObject({
      latency: { toolLatencyMs: 5, errorLatencyMs: 500 },
    });
    expect(parseCliArgs(['--tool-latency-ms=0'])).toMatchObject({ latency: {} });
  });

  it.each([
    [['--rate-limit-once', '2']],
    [['--http', '--rate-limit-once', '1.5']],
    [['--log-arrivals']],
    [['--defect', 'no-such-defect']],
    [['--defect']],
    [['--http', '--defect', 'stdout-noise']],
    [['--sse']],
    [['--http', '--port', 'abc']],
    [['--verbose']],
    [['--tool-latency-ms', '-1']],
    [['--tool-latency-ms', '10001']],
    [['--tool-latency-ms']],
    [['--error-latency-ms', '1e3']],
  ])('rejects %j', (argv) => {
    expect(parseCliArgs(argv).kind).toBe('error');
  });
});
