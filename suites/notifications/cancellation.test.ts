import { describe, expect, it } from 'vitest';
import type { StrayEvent } from '../../src/model/exchange.js';
import { answersAfterCancel, CANCEL_GRACE_MS } from './cancellation.js';

const at = (ms: number) => new Date(Date.UTC(2026, 11, 4) + ms).toISOString();
const cancel = { notice: { seq: 1, sentAt: at(0), durationMs: 0, request: {}, notifications: [] }, requestId: 7, at: Date.parse(at(0)) };
const answer = (id: unknown, ms: number): StrayEvent => ({ at: at(ms), kind: 'unknown-id', data: { jsonrpc: '2.0', id, result: {} } });

describe('answers after a cancellation', () => {
  it('holds an answer against the server only after the grace window, and only for the cancelled id with its type', () => {
    const strays = [answer(7, CANCEL_GRACE_MS - 1), answer('7', CANCEL_GRACE_MS + 500), answer(8, CANCEL_GRACE_MS + 500), answer(7, CANCEL_GRACE_MS + 500)];
    expect(answersAfterCancel([cancel], strays).map((l) => l.stray)).toEqual([strays[3]]);
  });
});

describe('the cancellations the silence check watches', () => {
  it('are those for requests that timed out, not the probes for requests answered or never sent', async () => {
    const { cancellationsSent } = await import('./cancellation.js');
    const call = (id: number, failure?: 'timeout') => ({ seq: id, sentAt: at(0), durationMs: 1, request: { jsonrpc: '2.0', id, method: 'tools/call' }, notifications: [], ...(failure ? { failure: { kind: failure, message: 'slow' } } : {}) });
    const cancel = (requestId: unknown) => ({ seq: 9, sentAt: at(10), durationMs: 0, request: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } }, notifications: [] });
    const watched = cancellationsSent([call(1, 'timeout'), call(2), cancel(1), cancel(2), cancel('never-sent')] as never);
    expect(watched.map((c) => c.requestId)).toEqual([1]);
  });
});
