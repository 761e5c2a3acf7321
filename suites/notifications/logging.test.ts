import { describe, expect, it } from 'vitest';
import type { Exchange, StrayEvent } from '../../src/model/exchange.js';
import { unaskedMessage } from './logging.js';
import { notificationsSeen } from '../kit/notifications-seen.js';

const log = (level: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level, data: 'x' } });
let seq = 0;
function exchange(
  method: string,
  meta: Record<string, unknown>,
  notifications: unknown[],
  sentAt = '2026-12-04T00:00:01.000Z',
): Exchange {
  return {
    seq: seq++,
    sentAt,
    durationMs: 1,
    request: { jsonrpc: '2.0', id: seq, method, params: { _meta: meta } },
    notifications,
  };
}
const LEVEL = { 'io.modelcontextprotocol/logLevel': 'warning' };

describe('log messages and the requests they belong to', () => {
  it('over stdio one message recorded on several requests in flight is one message, blamed only when none asked for logs', () => {
    const shared = log('error');
    const asked = exchange('tools/call', LEVEL, [shared]);
    const other = exchange('tools/list', {}, [shared]);
    const seen = notificationsSeen([asked, other], [], 'notifications/message');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.holders).toEqual([asked, other]);
    expect(unaskedMessage(seen[0]!, 'stdio', [asked, other])).toBeUndefined();
    const alone = notificationsSeen([other], [], 'notifications/message')[0]!;
    expect(unaskedMessage(alone, 'stdio', [other])).toMatch(/only requests without a log level/);
  });

  it('over HTTP the stream decides; a listen stream is left to log.request-scoped', () => {
    const onList = exchange('tools/list', {}, [log('info')]);
    const onListen = exchange('subscriptions/listen', {}, [log('info')]);
    const [a, b] = notificationsSeen([onList, onListen], [], 'notifications/message');
    expect(unaskedMessage(a!, 'http', [onList, onListen])).toMatch(/tools\/list .*set no log level/);
    expect(unaskedMessage(b!, 'http', [onList, onListen])).toBeUndefined();
  });

  it('a message while nothing is in flight is blamed only if no request had asked for logs before it', () => {
    const stray: StrayEvent = { at: '2026-12-04T00:00:02.000Z', kind: 'notification', data: log('error') };
    const before = exchange('tools/call', LEVEL, [], '2026-12-04T00:00:01.000Z');
    const after = exchange('tools/call', LEVEL, [], '2026-12-04T00:00:03.000Z');
    const seen = notificationsSeen([], [stray], 'notifications/message')[0]!;
    expect(unaskedMessage(seen, 'stdio', [before])).toBeUndefined();
    expect(unaskedMessage(seen, 'stdio', [after])).toMatch(/no request of the audit had set a log level/);
  });
});

describe('log.invalid-level', () => {
  async function judge(wire: '2026-07-28' | '2024-11-05', capabilities: Record<string, unknown>, code?: number) {
    const { logInvalidLevel } = await import('./logging.js');
    const sent: unknown[] = [];
    const ctx = {
      revision: wire,
      capabilities: async () => ({ capabilities }),
      client: {
        request: async (method: string, params: Record<string, unknown>, options: Record<string, unknown>) => {
          sent.push({ method, params, options });
          const response =
            code === undefined
              ? { jsonrpc: '2.0', id: 1, result: {} }
              : { jsonrpc: '2.0', id: 1, error: { code, message: 'x' } };
          return {
            seq: 1,
            sentAt: '2026-12-04T00:00:00.000Z',
            durationMs: 1,
            request: { jsonrpc: '2.0', id: 1, method, params },
            response,
            notifications: [],
          };
        },
      },
    };
    return { outcomes: await logInvalidLevel.run(ctx as never), sent };
  }

  it('on the initialize revisions asks logging/setLevel, only of a server that declares logging', async () => {
    const none = await judge('2024-11-05', { tools: {} });
    expect(none.outcomes).toMatchObject([{ status: 'skip' }]);
    expect(none.sent).toEqual([]);
    const rejected = await judge('2024-11-05', { logging: {} }, -32602);
    expect(rejected.sent).toMatchObject([{ method: 'logging/setLevel', params: { level: 'verbose' } }]);
    expect(rejected.outcomes).toMatchObject([{ status: 'pass' }]);
    expect((await judge('2024-11-05', { logging: {} })).outcomes[0]!.message).toBe(
      'logging/setLevel with level "verbose" (not a log level) was answered with a result',
    );
  });

  it('on 2026-07-28 sends the level in _meta of a tools/list', async () => {
    const { sent, outcomes } = await judge('2026-07-28', {}, -32600);
    expect(sent).toMatchObject([
      { method: 'tools/list', options: { extraMeta: { 'io.modelcontextprotocol/logLevel': 'verbose' } } },
    ]);
    expect(outcomes).toMatchObject([
      { status: 'fail', message: 'tools/list with log level "verbose" (not a log level) was rejected with -32600' },
    ]);
  });
});
