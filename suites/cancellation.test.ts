import { describe, expect, it } from 'vitest';
import type { StrayEvent } from '../src/transport/types.js';
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
