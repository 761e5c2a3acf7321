import { expect } from 'vitest';
import { handleMessage } from '../handler.js';
import type { HandlerContext } from '../reply.js';
import { initializeRequest, legacyRpc, rpc, standardHeaders, stdioContext } from '../test-support.js';
import { HTTP_DEFECTS } from './http.js';
import {
  showsEachDeviation,
  Message,
  exchange,
  answer,
  overHttp,
  lowerCased,
  searchInRegion,
  withVersion,
  header,
} from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
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
  'xmcp-sensitive': (ctx) => expect(header(ctx, 'api_key')).toBe('Api-Key'),
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
  'no-origin-check': (ctx) => {
    // Lives in the HTTP server, outside the handler (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'tools/list')).status).toBe(200);
  },
  'origin-rejected-400': (ctx) => {
    // Lives in the HTTP server, outside the handler (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'tools/list')).status).toBe(200);
  },
  'error-as-text-plain': (ctx) => {
    // Lives in the HTTP server, outside the handler (see http.test.ts); the handler itself stays clean.
    expect(overHttp(ctx, rpc(1, 'tools/bogus')).status).toBe(404);
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
};

showsEachDeviation(HTTP_DEFECTS, DEVIATIONS);
