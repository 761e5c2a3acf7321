import { errorOf, resultOf } from '../src/jsonrpc.js';
import type { CheckContext } from '../src/runner/context.js';
import type { CheckDefinition, KeywordText, Outcome } from '../src/runner/types.js';
import type { Exchange } from '../src/transport/types.js';
import { fail, pass, skip } from './outcome.js';

const MODERN = ['2026-07-28'] as const;
const SPEC = 'basic/transports/streamable-http';

const describe = (e: Exchange) => {
  const error = errorOf(e.response);
  const body = error ? `error ${String(error.code)}` : resultOf(e.response) ? 'a result' : e.failure ? e.failure.message : 'no JSON-RPC body';
  return `HTTP ${e.status ?? '—'} with ${body}`;
};

/** One probe, one expected (status, code) pair. */
function headerProbe(options: {
  id: string;
  keyword?: KeywordText;
  title: string;
  specRef: string;
  covers?: string[];
  expectStatus: number;
  expectCode: number;
  what: string;
  /** One probe, or several that must all be rejected alike (labelled for the message). */
  send(ctx: CheckContext): Promise<Exchange | [string, Exchange][]>;
  skipIf?(ctx: CheckContext): Promise<string | undefined>;
}): CheckDefinition {
  return {
    id: options.id,
    keyword: options.keyword ?? 'MUST',
    title: options.title,
    specRef: options.specRef,
    ...(options.covers ? { covers: options.covers } : {}),
    area: 'http-headers',
    wires: MODERN,
    needs: ['live', 'http'],
    phase: 'serial',
    async run(ctx): Promise<Outcome[]> {
      const reason = await options.skipIf?.(ctx);
      if (reason) return [skip(reason)];
      const sent = await options.send(ctx);
      const probes: [string, Exchange][] = Array.isArray(sent) ? sent : [[options.what, sent]];
      const right = (e: Exchange) => e.status === options.expectStatus && errorOf(e.response)?.code === options.expectCode;
      const wrong = probes.filter(([, e]) => !right(e));
      const text = (list: [string, Exchange][]) => list.map(([what, e]) => `${what}: ${describe(e)}`).join('; ');
      if (wrong.length === 0) return [pass(text(probes), probes.map(([, e]) => e))];
      return [fail(text(wrong), `HTTP ${options.expectStatus} with JSON-RPC error ${options.expectCode}`, wrong.map(([, e]) => e))];
    },
  };
}

const list = (ctx: CheckContext, headers: Record<string, string | null>) => ctx.client.request('tools/list', {}, { headers });
/** A tools/call of a name nobody lists: safe, and header validation comes before the tool lookup. */
const unknownCall = (ctx: CheckContext, headers: Record<string, string | null>) =>
  ctx.client.request('tools/call', { name: 'mtc_no_such_tool_5f3a9c', arguments: {} }, { headers });

export const HTTP_HEADER_CHECKS = [
  headerProbe({
    id: 'http.pv.missing-reject',
    title: 'A request without MCP-Protocol-Version is rejected with 400 and -32020',
    specRef: `${SPEC}#protocol-version-header`,
    covers: ['http.pv.header'],
    expectStatus: 400,
    expectCode: -32020,
    what: 'tools/list without MCP-Protocol-Version',
    send: (ctx) => list(ctx, { 'MCP-Protocol-Version': null }),
    async skipIf(ctx) {
      const discover = resultOf((await ctx.discover()).response);
      const versions = Array.isArray(discover?.supportedVersions) ? discover!.supportedVersions : [];
      return versions.includes('2025-03-26') ? 'the server supports 2025-03-26 clients, which MAY omit the header' : undefined;
    },
  }),
  headerProbe({
    id: 'http.pv.mismatch',
    title: 'MCP-Protocol-Version different from the body version is rejected with 400 and -32020',
    specRef: `${SPEC}#protocol-version-header`,
    covers: ['http.pv.match'],
    expectStatus: 400,
    expectCode: -32020,
    what: 'tools/list with header 2025-11-25 and body 2026-07-28',
    send: (ctx) => list(ctx, { 'MCP-Protocol-Version': '2025-11-25' }),
  }),
  headerProbe({
    id: 'http.validate.missing-std',
    title: 'A request without Mcp-Method (or a tools/call without Mcp-Name) is rejected with 400 and -32020',
    specRef: `${SPEC}#server-validation`,
    covers: ['http.std.required'],
    expectStatus: 400,
    expectCode: -32020,
    what: 'requests missing a standard header',
    send: async (ctx) => [
      ['tools/list without Mcp-Method', await list(ctx, { 'Mcp-Method': null })],
      ['tools/call without Mcp-Name', await unknownCall(ctx, { 'Mcp-Name': null })],
    ],
  }),
  headerProbe({
    id: 'http.validate.mismatch',
    title: 'Mcp-Method or Mcp-Name different from the body is rejected with 400 and -32020',
    specRef: `${SPEC}#server-validation`,
    covers: ['http.validate.400-32020'],
    expectStatus: 400,
    expectCode: -32020,
    what: 'requests whose standard header disagrees with the body',
    send: async (ctx) => [
      ['tools/list sent with Mcp-Method: server/discover', await list(ctx, { 'Mcp-Method': 'server/discover' })],
      ['tools/call sent with a different Mcp-Name', await unknownCall(ctx, { 'Mcp-Name': 'mtc_other_name' })],
    ],
  }),
  headerProbe({
    id: 'http.method-not-found',
    title: 'An unknown method is answered with 404 and -32601',
    specRef: `${SPEC}#protocol-version-header`,
    expectStatus: 404,
    expectCode: -32601,
    what: 'the unknown method tools/bogus',
    send: (ctx) => ctx.client.request('tools/bogus'),
  }),
];

export const getDelete405: CheckDefinition = {
  id: 'http.compat.get-delete-405',
  keyword: 'SHOULD',
  title: 'GET and DELETE on the MCP endpoint are answered with 405',
  specRef: `${SPEC}#earlier-streamable-http-revisions`,
  area: 'http-headers',
  wires: MODERN,
  needs: ['live', 'http'],
  phase: 'serial',
  async run(ctx) {
    const get = await ctx.client.probeMethod('GET', { Accept: 'text/event-stream' });
    if (!get) return [skip('this transport cannot send GET or DELETE')];
    const exchanges = [get, (await ctx.client.probeMethod('DELETE'))!];
    const wrong = exchanges.filter((e) => e.status !== 405);
    if (wrong.length === 0) return [pass('GET and DELETE were answered with 405', exchanges)];
    return [
      fail(
        wrong.map((e) => `${(e.request as { httpMethod: string }).httpMethod} → ${e.status === undefined ? e.failure?.message : `HTTP ${e.status}`}`).join('; '),
        '405 Method Not Allowed: 2026-07-28 has no GET stream and no session to delete',
        exchanges,
      ),
    ];
  },
};

export const ignoreSession: CheckDefinition = {
  id: 'http.compat.ignore-session',
  keyword: 'SHOULD',
  title: 'Mcp-Session-Id on a request is ignored, and no session id is minted or echoed',
  specRef: `${SPEC}#earlier-streamable-http-revisions`,
  area: 'http-headers',
  wires: MODERN,
  needs: ['live', 'http'],
  phase: 'serial',
  async run(ctx) {
    const probe = await list(ctx, { 'Mcp-Session-Id': 'mtc-probe-0123456789abcdef' });
    const problems: string[] = [];
    if (!resultOf(probe.response)) problems.push(`tools/list carrying Mcp-Session-Id was not served (${describe(probe)})`);
    const minted = ctx.exchanges().filter((e) => e.responseHeaders?.['mcp-session-id'] !== undefined);
    if (minted.length > 0) problems.push(`${minted.length} response(s) carried an Mcp-Session-Id header`);
    if (problems.length === 0) return [pass('a request with Mcp-Session-Id was served normally; no response carried a session id', [probe])];
    return [fail(problems.join('; '), 'sessions do not exist in 2026-07-28: ignore Mcp-Session-Id and never send one', [probe, ...minted.slice(0, 2)])];
  },
};

export const HTTP_CHECKS = [...HTTP_HEADER_CHECKS, getDelete405, ignoreSession] as const;
