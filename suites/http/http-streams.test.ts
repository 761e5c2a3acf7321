import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.js';
import { toResult } from '../../src/runner/runner.js';
import { sseRelated, unrelated } from './http-streams.js';

const note = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', method, params });
const callStream = (notifications: unknown[]): Exchange => ({
  seq: 1,
  sentAt: '2026-12-04T00:00:00.000Z',
  durationMs: 5,
  request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 't' } } },
  response: { jsonrpc: '2.0', id: 1, result: { content: [] } },
  notifications,
});
const mine = note('notifications/progress', { progressToken: 't', progress: 1 });
const other = note('notifications/progress', { progressToken: 'u', progress: 1 });
const listChanged = note('notifications/tools/list_changed');

describe("notifications on a request's SSE stream that do not relate to it", () => {
  it("on 2026-07-28: another token's progress and anything but progress, log messages and a change the call may have made", () => {
    const unknown = note('notifications/mtc_unknown');
    expect(
      unrelated(
        callStream([mine, note('notifications/message', { level: 'info' }), other, listChanged, unknown]),
        '2026-07-28',
      ),
    ).toEqual([other, unknown]);
  });

  it('on 2026-07-28 a list change on the stream of a request that changes nothing (tools/list) is unrelated', () => {
    const list: Exchange = {
      ...callStream([listChanged]),
      request: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    };
    expect(unrelated(list, '2026-07-28')).toEqual([listChanged]);
  });

  it("on the initialize revisions only another token's progress: a list change may be what the call caused", () => {
    expect(unrelated(callStream([mine, other, listChanged]), '2025-06-18')).toEqual([other]);
  });

  it('judged on 2025-03-26 under its SHOULD, so a finding warns', async () => {
    const ctx = { wire: '2025-03-26', exchanges: () => [callStream([other, listChanged])] };
    const [outcome] = await sseRelated.run(ctx as never);
    expect(outcome!.message).toMatch(/notifications\/progress on the tools\/call stream/);
    expect(toResult(sseRelated, outcome!, 0, '2025-03-26')).toMatchObject({
      status: 'warn',
      keywordText: 'SHOULD',
      quote: 'These messages SHOULD relate to the originating client _request_.',
    });
  });
});
