import { expect } from 'vitest';
import { handleMessage } from '../handler.js';
import type { HandlerContext } from '../reply.js';
import { meta, rpc, stdioContext } from '../test-support.js';
import { NOTIFICATIONS_DEFECTS } from './notifications.js';
import { showsEachDeviation, Message, exchange, discover, callResult } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
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
};

showsEachDeviation(NOTIFICATIONS_DEFECTS, DEVIATIONS);
