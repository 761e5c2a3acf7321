import { describe, expect, it } from 'vitest';
import type { Exchange, StrayEvent } from '../../src/model/exchange.js';
import { readPoint, sentAfterRead, type ReadPoint } from './cancellation.js';

const at = (ms: number) => new Date(Date.UTC(2026, 11, 4) + ms).toISOString();
const LEVEL = { 'io.modelcontextprotocol/logLevel': 'warning' };

/** A request sent at `seq` (answered at `answeredSeq`, if given), holding the notifications that arrived meanwhile. */
function request(
  seq: number,
  method: string,
  options: { answeredSeq?: number; meta?: Record<string, unknown>; notifications?: unknown[]; timedOut?: boolean } = {},
): Exchange {
  return {
    seq,
    sentAt: at(seq),
    durationMs: 1,
    request: { jsonrpc: '2.0', id: seq, method, params: { _meta: options.meta ?? {} } },
    notifications: options.notifications ?? [],
    ...(options.answeredSeq !== undefined
      ? { response: { jsonrpc: '2.0', id: seq, result: {} }, answeredSeq: options.answeredSeq }
      : {}),
    ...(options.timedOut ? { failure: { kind: 'timeout' as const, message: 'slow' } } : {}),
  };
}
const stray = (seq: number, data: unknown, kind: StrayEvent['kind'] = 'notification'): StrayEvent => ({
  at: at(seq),
  seq,
  kind,
  data,
});
const answer = (id: unknown, seq: number) => stray(seq, { jsonrpc: '2.0', id, result: {} }, 'unknown-id');
const progress = (token: unknown) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: 2 },
});
const log = () => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'warning', data: 'cleaning up' },
});

// The call (seq 1, id 1) timed out; the cancellation left at seq 10, its marker at seq 11, answered at seq 13.
const call = request(1, 'tools/call', { meta: { progressToken: 't', ...LEVEL }, timedOut: true });
const notice = request(10, 'notifications/cancelled');
const cancel = { call, notice };

describe('where the server showed it had read a cancellation', () => {
  it('is its answer to the marker: in time, that answer (and what the marker did not record after its own seq came later)', () => {
    expect(readPoint(request(11, 'ping', { answeredSeq: 13 }), [])).toMatchObject({ seq: 13, since: 11 });
    expect(readPoint({ ...request(11, 'ping', { answeredSeq: 13 }), notificationsDropped: 2 }, [])).toMatchObject({
      seq: 13,
      since: 13,
    });
  });

  it('is a late answer to the marker when it timed out (or was answered under another id), and nothing when none came', () => {
    const timedOut = request(11, 'ping', { timedOut: true });
    expect(readPoint(timedOut, [answer('11', 14), answer(11, 20)])).toMatchObject({ seq: 20, since: 20 });
    expect(
      readPoint({ ...request(11, 'ping', { answeredSeq: 12 }), failure: { kind: 'wrong-id', message: 'x' } }, [
        answer(11, 30),
      ]),
    ).toMatchObject({ seq: 30 });
    expect(readPoint(timedOut, [answer(12, 20)])).toBeUndefined();
    expect(readPoint(undefined, [])).toBeUndefined();
  });
});

describe('what the server sent for a cancelled call after it had read the cancellation', () => {
  const marker = request(11, 'server/discover', { answeredSeq: 13 });
  const read: ReadPoint = { marker, seq: 13, since: 11 };
  const kinds = (exchanges: Exchange[], strays: StrayEvent[], wire: '2026-07-28' | '2025-11-25' = '2026-07-28') =>
    sentAfterRead(cancel, read, [call, notice, marker, ...exchanges], strays, wire).map((l) => l.kind);

  it("an answer to its id (same JSON type) after the marker's answer; one before it is not evidence", () => {
    expect(kinds([], [answer(1, 12), answer('1', 14), answer(2, 14)])).toEqual([]);
    expect(kinds([], [answer(1, 12), answer(1, 14)])).toEqual(['answer']);
    expect(sentAfterRead(cancel, read, [], [answer(1, 14)], '2026-07-28')[0]!.description).toMatch(
      /^an answer to it, 4 ms after our notifications\/cancelled$/,
    );
  });

  it("a progress notification for its token that certainly came after the marker's answer", () => {
    const late = progress('t');
    // Recorded on the marker: it came while the marker was in flight, before its answer.
    expect(kinds([{ ...marker, notifications: [late] }], [])).toEqual([]);
    // Alone on the channel (a stray) after the marker was sent, and not recorded on it: after its answer.
    expect(kinds([], [stray(12, late)])).toEqual(['progress']);
    expect(kinds([], [stray(9, late), stray(12, progress('other'))])).toEqual([]);
    // On a request sent after the marker: after its answer.
    expect(kinds([request(20, 'tools/list', { answeredSeq: 22, notifications: [late] })], [])).toEqual(['progress']);
    // Only on a request in flight since before the marker was sent: it may have come before the cancellation was read.
    expect(kinds([request(8, 'tools/list', { answeredSeq: 22, notifications: [late] })], [])).toEqual([]);
  });

  it('with a marker answered late (after its timeout), only what came after that answer', () => {
    const lateMarker: ReadPoint = { marker: request(11, 'ping', { timedOut: true }), seq: 30, since: 30 };
    const held = (seq: number) => request(seq, 'tools/list', { answeredSeq: seq + 1, notifications: [progress('t')] });
    expect(sentAfterRead(cancel, lateMarker, [call, held(20)], [], '2025-11-25')).toEqual([]);
    expect(sentAfterRead(cancel, lateMarker, [call, held(40)], [], '2025-11-25').map((l) => l.kind)).toEqual([
      'progress',
    ]);
  });

  it('a log message on 2026-07-28 when the call asked for logs and no other request that did could own it', () => {
    expect(kinds([], [stray(14, log())])).toEqual(['log']);
    expect(kinds([], [stray(14, log())], '2025-11-25')).toEqual([]);
    // Another request that asked for logs, answered before the message came: it cannot own it.
    expect(kinds([request(5, 'tools/list', { answeredSeq: 6, meta: LEVEL })], [stray(14, log())])).toEqual(['log']);
    // One still in progress when it came (or answered only after it) could.
    expect(kinds([request(12, 'tools/call', { meta: LEVEL, timedOut: true })], [stray(14, log())])).toEqual([]);
    expect(kinds([request(12, 'tools/call', { answeredSeq: 15, meta: LEVEL, notifications: [log()] })], [])).toEqual(
      [],
    );
    // A call that did not ask for logs owns none.
    const quiet = { call: request(1, 'tools/call', { timedOut: true }), notice };
    expect(sentAfterRead(quiet, read, [quiet.call, notice, marker], [stray(14, log())], '2026-07-28')).toEqual([]);
  });
});

describe('responses to the notifications base.notif.no-response sends', () => {
  it('are those with a null or missing id, or a cancelled id, that arrive after the notifications left', async () => {
    const { answersToNotifications } = await import('./cancellation.js');
    const stray = (ms: number, data: unknown, kind: StrayEvent['kind'] = 'unknown-id'): StrayEvent => ({
      at: at(ms),
      kind,
      data,
    });
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

describe('the cancellations base.notif.no-response sends', () => {
  it('never cancel initialize ("The initialize request MUST NOT be cancelled by clients"): the race probe takes the first other request answered', async () => {
    const { cancellationsToIgnore } = await import('./cancellation.js');
    const answered = (id: number, method: string): Exchange => ({
      seq: id,
      sentAt: at(id),
      durationMs: 1,
      request: { jsonrpc: '2.0', id, method },
      response: { jsonrpc: '2.0', id, result: {} },
      notifications: [],
    });
    const ids = (exchanges: Exchange[]) => cancellationsToIgnore(exchanges).map((p) => p.requestId);
    expect(ids([answered(1, 'initialize'), answered(2, 'tools/list')])).toEqual([
      2,
      'mcp-tools-conformance-never-sent',
      undefined,
    ]);
    // Only initialize answered so far: the id never sent and the one without requestId remain.
    expect(ids([answered(1, 'initialize')])).toEqual(['mcp-tools-conformance-never-sent', undefined]);
  });
});

describe('base.notif.no-response', () => {
  /**
   * A stdio context whose server answers each notification with `reply` (or nothing), while a call it gave up on
   * (id 41) is answered late.
   */
  async function judge(reply?: (params: Record<string, unknown>) => unknown) {
    const { notificationsUnanswered } = await import('./cancellation.js');
    const strays: StrayEvent[] = [];
    const answered = {
      seq: 1,
      sentAt: at(0),
      durationMs: 1,
      request: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      response: { jsonrpc: '2.0', id: 3, result: {} },
      notifications: [],
    };
    const ctx = {
      exchanges: () => [answered],
      strays: () => strays,
      client: {
        notify: async (method: string, params: Record<string, unknown>) => {
          strays.push({
            at: new Date().toISOString(),
            kind: 'unknown-id',
            data: { jsonrpc: '2.0', id: 41, result: { content: [] } },
          });
          const answer = reply?.(params);
          if (answer !== undefined) strays.push({ at: new Date().toISOString(), kind: 'unknown-id', data: answer });
          return {
            seq: 2,
            sentAt: new Date().toISOString(),
            durationMs: 0,
            request: { jsonrpc: '2.0', method, params },
            notifications: [],
          };
        },
      },
    };
    return notificationsUnanswered.run(ctx as never);
  }

  it('passes when the only responses in its window answer other requests', async () => {
    expect((await judge()).map((o) => o.status)).toEqual(['pass']);
  });

  it.each([
    [
      'an error without id to the cancellation without requestId',
      (p: Record<string, unknown>) =>
        'requestId' in p ? undefined : { jsonrpc: '2.0', error: { code: -32602, message: 'requestId is required' } },
    ],
    [
      'a response with the cancelled id',
      (p: Record<string, unknown>) =>
        p.requestId === 'mcp-tools-conformance-never-sent'
          ? { jsonrpc: '2.0', id: p.requestId, result: {} }
          : undefined,
    ],
  ])('fails %s', async (_, reply) => {
    const [outcome] = await judge(reply);
    expect(outcome).toMatchObject({ status: 'fail' });
    expect(outcome!.message).not.toContain('"id":41');
  });
});

describe('base.notif.no-response while checks overlap', () => {
  /** The audit's connection must stay untouched; the listing-only one (`shared`) is answered like judge()'s. */
  async function overlapping(shared: () => Promise<unknown>, wire = '2026-07-28') {
    const { notificationsUnanswered } = await import('./cancellation.js');
    const { isPending } = await import('../../src/runner/types.js');
    const used: string[] = [];
    const ctx = {
      revision: wire,
      overlaps: true,
      canOpenConnections: true,
      exchanges: () => [],
      strays: () => [],
      client: { notify: async () => used.push('audited') },
      sharedConnection: async (key: string) => (used.push(key), shared()),
    };
    const ran = await notificationsUnanswered.run(ctx as never);
    return { used, ran, isPending };
  }

  function ownConnection(reply?: unknown, firstMethod = 'server/discover') {
    const strays: StrayEvent[] = [];
    const answered = (id: number, method: string) => ({
      seq: id,
      sentAt: at(0),
      durationMs: 1,
      request: { jsonrpc: '2.0', id, method },
      response: { jsonrpc: '2.0', id, result: {} },
      notifications: [],
    });
    const sent: unknown[] = [];
    const exchanges = [answered(1, firstMethod)];
    return {
      sent,
      client: {
        exchanges,
        transport: { strays: () => strays },
        request: async (method: string) => {
          const exchange = answered(exchanges.length + 1, method);
          exchanges.push(exchange);
          return exchange;
        },
        notify: async (method: string, params: Record<string, unknown>) => {
          sent.push(params);
          if (reply !== undefined && !('requestId' in params))
            strays.push({ at: new Date().toISOString(), kind: 'unknown-id', data: reply });
          return {
            seq: 2,
            sentAt: new Date().toISOString(),
            durationMs: 0,
            request: { jsonrpc: '2.0', method, params },
            notifications: [],
          };
        },
      },
    };
  }

  it('keeps its window on the listing-only connection and hands back its verdict for later', async () => {
    const own = ownConnection();
    const { used, ran, isPending } = await overlapping(async () => own.client);
    expect(used).toEqual(['listing-only']);
    expect(own.sent.map((p) => (p as { requestId?: unknown }).requestId)).toEqual([
      1,
      'mcp-tools-conformance-never-sent',
      undefined,
    ]);
    if (!isPending(ran)) throw new Error('expected a pending verdict');
    expect((await ran.verdict).map((o) => o.status)).toEqual(['pass']);
  });

  it('on the initialize wire, a connection whose only answered request is initialize gets a ping, whose id the race probe cancels', async () => {
    const own = ownConnection(undefined, 'initialize');
    const { ran, isPending } = await overlapping(async () => own.client, '2025-11-25');
    expect(own.client.exchanges.map((e) => e.request.method)).toEqual(['initialize', 'ping']);
    expect(own.sent.map((p) => (p as { requestId?: unknown }).requestId)).toEqual([
      2,
      'mcp-tools-conformance-never-sent',
      undefined,
    ]);
    if (!isPending(ran)) throw new Error('expected a pending verdict');
    expect((await ran.verdict).map((o) => o.status)).toEqual(['pass']);
  });

  it('fails when the server answers a notification there', async () => {
    const own = ownConnection({ jsonrpc: '2.0', error: { code: -32602, message: 'requestId is required' } });
    const { ran, isPending } = await overlapping(async () => own.client);
    if (!isPending(ran)) throw new Error('expected a pending verdict');
    expect((await ran.verdict).map((o) => o.status)).toEqual(['fail']);
  });

  it('keeps its window on the audited connection, in turn, when the other cannot be opened', async () => {
    const { used, ran, isPending } = await overlapping(async () => {
      throw new Error('the target cannot run twice');
    });
    expect(isPending(ran)).toBe(false);
    expect(used).toEqual(['listing-only', 'audited', 'audited']);
  });
});

describe('cancel.server.no-other', () => {
  const cancelled = (requestId: unknown) => ({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId, reason: 'x' },
  });
  async function judge(wire: '2026-07-28' | '2025-06-18', exchanges: Exchange[], strays: StrayEvent[]) {
    const { cancelOnlyListen } = await import('./cancellation.js');
    return cancelOnlyListen.run({ revision: wire, exchanges: () => exchanges, strays: () => strays } as never);
  }
  const listen = request(4, 'subscriptions/listen');
  // The server's own roots/list, id "s-1", recorded as the request it is (and answered by the client).
  const serverRequest = stray(3, { jsonrpc: '2.0', id: 's-1', method: 'roots/list' }, 'server-request');

  it('on 2026-07-28 accepts only a subscriptions/listen id', async () => {
    expect((await judge('2026-07-28', [listen], [stray(5, cancelled(4))])).map((o) => o.status)).toEqual(['pass']);
    expect(
      (await judge('2026-07-28', [listen], [serverRequest, stray(5, cancelled('s-1'))])).map((o) => o.status),
    ).toEqual(['fail']);
  });

  it('on the initialize revisions accepts only a request the server sent, "in the same direction" (same id, same JSON type)', async () => {
    const call = request(7, 'tools/call', { timedOut: true });
    expect(
      (await judge('2025-06-18', [call], [serverRequest, stray(8, cancelled('s-1'))])).map((o) => o.status),
    ).toEqual(['pass']);
    const [own] = await judge('2025-06-18', [call], [serverRequest, stray(8, cancelled(7))]);
    expect(own).toMatchObject({ status: 'fail' });
    expect(own!.message).toMatch(
      /request id 7, which is not a request the server had sent the client \(it sent 1 request\(s\) of its own\)/,
    );
    // A server request seen on a request's SSE stream counts as well.
    const onStream = {
      ...call,
      notifications: [{ jsonrpc: '2.0', id: 9, method: 'sampling/createMessage', params: {} }],
    };
    expect((await judge('2025-06-18', [onStream], [stray(8, cancelled(9))])).map((o) => o.status)).toEqual(['pass']);
    expect((await judge('2025-06-18', [onStream], [stray(8, cancelled('9'))])).map((o) => o.status)).toEqual(['fail']);
  });
});
