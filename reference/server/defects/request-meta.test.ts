import { expect } from 'vitest';
import type { HandlerContext } from '../reply.js';
import { rpc } from '../test-support.js';
import { REQUEST_META_DEFECTS } from './request-meta.js';
import {
  showsEachDeviation,
  Message,
  exchange,
  discover,
  pages,
  SERVER_INFO_KEY,
  answer,
  overHttp,
  withVersion,
  MALFORMED_META,
  listed,
} from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
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
  'meta-key-empty-label': (ctx) => expect(listed(ctx)[0]!._meta).toEqual({ 'com..example/priority': 'high' }),
  'meta-key-bad-label': (ctx) => {
    const content = exchange(ctx, rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).at(-1)!.result
      .content as Message[];
    expect(content[0]).toMatchObject({ type: 'text', text: 'hi', _meta: { 'com.example-/source': 'echo' } });
  },
  'meta-key-bad-name': (ctx) =>
    expect(Object.keys(discover(ctx).result._meta)).toEqual([SERVER_INFO_KEY, 'com.example/_trace']),
  'extension-id-unprefixed': (ctx) => expect(discover(ctx).result.capabilities.extensions).toEqual({ tasks: {} }),
  'bad-traceparent': (ctx) => expect(pages(ctx)[0]!.result._meta.traceparent).toBe('00-trace-1-01'),
  'initialize-error-unnamed': (ctx) =>
    expect(exchange(ctx, rpc(1, 'initialize')).at(-1)!.error.message).toBe('Method not found: initialize'),
};

showsEachDeviation(REQUEST_META_DEFECTS, DEVIATIONS);
