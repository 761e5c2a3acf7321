import { expect } from 'vitest';
import { handleMessage } from '../handler.js';
import type { HandlerContext } from '../reply.js';
import { initializeRequest, legacyRpc, rpc } from '../test-support.js';
import { WIRE_DEFECTS } from './wire.js';
import { showsEachDeviation, exchange, discover, pages, callResult } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
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
  'ignore-stdin-eof': (ctx) => {
    // Lives in the stdio loop, outside the handler (see stdio.test.ts); the handler itself stays clean.
    expect(discover(ctx).result.resultType).toBe('complete');
  },
  'error-id-null': (ctx) => {
    const unknown = callResult(ctx, 'no_such_tool', {});
    expect(unknown.error).toBeDefined();
    expect(unknown.id).toBeNull();
    expect(callResult(ctx, 'echo', { text: 'hi' }).id).toBe(1);
    expect(exchange(ctx, rpc(3, 'tools/bogus')).at(-1)!.id).toBe(3);
  },
  'digit-string-id-as-number': (ctx) => {
    expect(exchange(ctx, rpc('900000007', 'tools/list')).at(-1)!.id).toBe(900000007);
    expect(exchange(ctx, rpc('abc', 'tools/list')).at(-1)!.id).toBe('abc');
  },
  'latin1-response': (ctx) => {
    // Lives in the stdio server, which encodes the line (see stdio.test.ts); the handler itself stays clean.
    expect(discover(ctx).result.instructions).not.toMatch(/caf/);
  },
  'ping-error': (ctx) => {
    const answer = exchange(ctx, rpc('p', 'ping')).at(-1)!;
    expect(answer.error).toMatchObject({ code: -32601 });
    expect(answer).not.toHaveProperty('result');
  },
};

showsEachDeviation(WIRE_DEFECTS, DEVIATIONS);
