import { expect } from 'vitest';
import { handleMessage } from '../handler.js';
import type { HandlerContext } from '../reply.js';
import { rpc } from '../test-support.js';
import { CHAOS_DEFECTS } from './chaos.js';
import { showsEachDeviation, exchange, callResult } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'server-request-waits': (ctx) => {
    const asked = handleMessage(rpc(1, 'tools/list'), ctx);
    expect(asked).toMatchObject({ kind: 'ask', request: { id: 'srv-1', method: 'roots/list' } });
    expect((asked as Extract<typeof asked, { kind: 'ask' }>).then()).toMatchObject({
      kind: 'send',
      messages: [{ id: 1, result: { tools: expect.any(Array) } }],
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
  'wrong-id-on-list': (ctx) => {
    const response = exchange(ctx, rpc(7, 'tools/list')).at(-1)!;
    expect(response.id).not.toBe(7);
    expect(response.result.tools).toHaveLength(4);
  },
};

showsEachDeviation(CHAOS_DEFECTS, DEVIATIONS);
