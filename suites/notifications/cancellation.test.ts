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

describe('responses to the notifications base.notif.no-response sends', () => {
  it('are those with a null or missing id, or a cancelled id, that arrive after the notifications left', async () => {
    const { answersToNotifications } = await import('./cancellation.js');
    const stray = (ms: number, data: unknown, kind: StrayEvent['kind'] = 'unknown-id'): StrayEvent => ({ at: at(ms), kind, data });
    const strays = [
      stray(-1, { jsonrpc: '2.0', error: { code: -32602, message: 'before the probe' } }),
      stray(5, { jsonrpc: '2.0', error: { code: -32602, message: 'no id' } }),
      stray(6, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'null id' } }),
      stray(7, { jsonrpc: '2.0', id: 'never-sent', error: { code: -32602, message: 'the cancelled id' } }),
      stray(8, { jsonrpc: '2.0', id: 3, result: {} }),
      stray(9, { jsonrpc: '2.0', id: 41, result: { content: [] } }),
      stray(10, { jsonrpc: '2.0', method: 'notifications/message', params: {} }, 'notification'),
      stray(11, 'not json', 'non-json'),
    ];
    const found = answersToNotifications(strays, at(0), new Set([JSON.stringify('never-sent'), JSON.stringify(3)]));
    expect(found).toEqual(strays.slice(1, 5));
  });
});

describe('base.notif.no-response', () => {
  /** A stdio context whose server answers each notification with `reply` (or nothing), while a call it gave up on (id 41) is answered late. */
  async function judge(reply?: (params: Record<string, unknown>) => unknown) {
    const { notificationsUnanswered } = await import('./cancellation.js');
    const strays: StrayEvent[] = [];
    const answered = { seq: 1, sentAt: at(0), durationMs: 1, request: { jsonrpc: '2.0', id: 3, method: 'tools/list' }, response: { jsonrpc: '2.0', id: 3, result: {} }, notifications: [] };
    const ctx = {
      exchanges: () => [answered],
      strays: () => strays,
      client: {
        notify: async (method: string, params: Record<string, unknown>) => {
          strays.push({ at: new Date().toISOString(), kind: 'unknown-id', data: { jsonrpc: '2.0', id: 41, result: { content: [] } } });
          const answer = reply?.(params);
          if (answer !== undefined) strays.push({ at: new Date().toISOString(), kind: 'unknown-id', data: answer });
          return { seq: 2, sentAt: new Date().toISOString(), durationMs: 0, request: { jsonrpc: '2.0', method, params }, notifications: [] };
        },
      },
    };
    return notificationsUnanswered.run(ctx as never);
  }

  it('passes when the only responses in its window answer other requests', async () => {
    expect((await judge()).map((o) => o.status)).toEqual(['pass']);
  });

  it.each([
    ['an error without id to the cancellation without requestId', (p: Record<string, unknown>) => ('requestId' in p ? undefined : { jsonrpc: '2.0', error: { code: -32602, message: 'requestId is required' } })],
    ['a response with the cancelled id', (p: Record<string, unknown>) => (p.requestId === 'mcp-tools-conformance-never-sent' ? { jsonrpc: '2.0', id: p.requestId, result: {} } : undefined)],
  ])('fails %s', async (_, reply) => {
    const [outcome] = await judge(reply);
    expect(outcome).toMatchObject({ status: 'fail' });
    expect(outcome!.message).not.toContain('"id":41');
  });
});
