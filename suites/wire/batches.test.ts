import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.js';
import { judgeBatch, judgeNotificationBatch } from './batches.js';

const BATCH = [
  { jsonrpc: '2.0', id: 'mtc-batch-list', method: 'tools/list' },
  { jsonrpc: '2.0', id: 'mtc-batch-ping', method: 'ping' },
];
const LISTED = { jsonrpc: '2.0', id: 'mtc-batch-list', result: { tools: [] } };
const PONG = { jsonrpc: '2.0', id: 'mtc-batch-ping', result: {} };

const exchange = (more: Partial<Exchange>): Exchange => ({
  seq: 1,
  sentAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  request: BATCH,
  notifications: [],
  ...more,
});

describe('base.batch.receive', () => {
  it('passes a batch answered as one array, or request by request: in an event stream, or on lines of their own', () => {
    expect(judgeBatch(exchange({ response: [LISTED, PONG] }), [])).toMatchObject({
      status: 'pass',
      message: expect.stringContaining('tools/list got a result, ping got a result'),
    });
    expect(judgeBatch(exchange({ response: PONG, notifications: [LISTED] }), []).status).toBe('pass');
    const apart = judgeBatch(
      exchange({
        response: LISTED,
        failure: { kind: 'wrong-id', message: 'response id "mtc-batch-list" does not match' },
      }),
      [LISTED, PONG],
    );
    expect(apart.status).toBe('pass');
    expect(apart.evidence).toHaveLength(3);
  });

  it('passes a request of the batch answered with an error that is no refusal of the batch', () => {
    const unknown = { jsonrpc: '2.0', id: 'mtc-batch-ping', error: { code: -32601, message: 'Method not found' } };
    expect(judgeBatch(exchange({ response: [LISTED, unknown] }), [])).toMatchObject({
      status: 'pass',
      message: expect.stringContaining('ping got error -32601'),
    });
  });

  it('fails a batch answered with one error, requests read as invalid, a request left unanswered, and silence', () => {
    const whole = {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid request: batches are not supported' },
    };
    expect(judgeBatch(exchange({ response: whole }), [])).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('one error -32600'),
    });
    const invalid = BATCH.map((r) => ({
      jsonrpc: '2.0',
      id: r.id,
      error: { code: -32600, message: 'Invalid Request' },
    }));
    expect(judgeBatch(exchange({ response: invalid }), [])).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('read as an invalid request'),
    });
    expect(judgeBatch(exchange({ response: [LISTED] }), [])).toMatchObject({
      status: 'fail',
      message: 'ping in the batch got no response',
    });
    const silent = judgeBatch(
      exchange({ failure: { kind: 'timeout', message: 'no response to id "mtc-batch-ping" within 10000 ms' } }),
      [],
    );
    expect(silent).toMatchObject({
      status: 'fail',
      message: 'the batch got no response (no response to id "mtc-batch-ping" within 10000 ms)',
      expected: expect.stringContaining('one response per request'),
    });
  });

  it('ignores what answers other requests', () => {
    expect(judgeBatch(exchange({ response: [LISTED] }), [{ jsonrpc: '2.0', id: 7, result: {} }]).status).toBe('fail');
  });
});

describe('http.batch.notifications-202', () => {
  it('passes 202 with no body; fails another 2xx or a body; skips a refusal (an HTTP error status) and no answer', () => {
    expect(judgeNotificationBatch(exchange({ status: 202 })).status).toBe('pass');
    expect(judgeNotificationBatch(exchange({ status: 200, response: [] }))).toMatchObject({
      status: 'fail',
      message: 'a batch of 2 notifications was answered HTTP 200 with the body []',
    });
    expect(judgeNotificationBatch(exchange({ status: 202, rawBody: 'ok' })).status).toBe('fail');
    expect(judgeNotificationBatch(exchange({ status: 204 })).status).toBe('fail');
    expect(
      judgeNotificationBatch(
        exchange({ status: 400, response: { jsonrpc: '2.0', error: { code: -32600, message: 'no batches' } } }),
      ).status,
    ).toBe('skip');
    expect(judgeNotificationBatch(exchange({ failure: { kind: 'connection', message: 'ECONNRESET' } })).status).toBe(
      'skip',
    );
  });
});
