import { describe, expect, it } from 'vitest';
import type { Exchange, StrayEvent } from '../../src/model/exchange.js';
import { notificationsSeen } from '../kit/notifications-seen.js';
import { arrivedAfterResponse, OTHER_STREAM_MARGIN_MS } from './progress.js';

const at = (ms: number) => new Date(Date.UTC(2026, 11, 4) + ms).toISOString();
const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: '9017', progress: 1 } };
// Sent at 0 ms, answered 100 ms later.
const call: Exchange = {
  seq: 1,
  sentAt: at(0),
  durationMs: 100,
  request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: '9017' } } },
  response: { jsonrpc: '2.0', id: 1, result: { content: [] } },
  notifications: [],
};
const strayAt = (ms: number): StrayEvent => ({ at: at(ms), seq: 2, kind: 'notification', data: progress });
const seenStray = (ms: number) => notificationsSeen([], [strayAt(ms)], 'notifications/progress')[0]!;

describe('a progress notification after the response to its request', () => {
  it("is one off the request's own stream; over stdio a stray came while nothing was in flight, so after the answer", () => {
    const holder = { ...call, notifications: [progress] };
    const held = notificationsSeen([holder], [], 'notifications/progress')[0]!;
    expect(arrivedAfterResponse(held, holder, 'stdio')).toBe(false);
    expect(arrivedAfterResponse(held, call, 'stdio')).toBe(true);
    expect(arrivedAfterResponse(seenStray(50), call, 'stdio')).toBe(true);
  });

  it('over HTTP, on the GET stream (a stray), only one that arrived well after the response: the streams are not ordered', () => {
    expect(arrivedAfterResponse(seenStray(50), call, 'http')).toBe(false);
    expect(arrivedAfterResponse(seenStray(100 + OTHER_STREAM_MARGIN_MS), call, 'http')).toBe(false);
    expect(arrivedAfterResponse(seenStray(101 + OTHER_STREAM_MARGIN_MS), call, 'http')).toBe(true);
  });

  it('never for a request that was not answered (a call that timed out)', () => {
    const { response: _, ...unanswered } = call;
    expect(
      arrivedAfterResponse(seenStray(5000), { ...unanswered, failure: { kind: 'timeout', message: 'slow' } }, 'stdio'),
    ).toBe(false);
  });
});
