import { describe, expect, it } from 'vitest';
import { lateAnswer, lateAnswerSoFar, lateGraceMs } from './late-answers.js';
import { SingleChannel } from './single-channel.js';
import type { Exchange } from '../model/exchange.js';

const exchange = (id: number): Exchange => ({
  seq: id,
  sentAt: new Date().toISOString(),
  durationMs: 0,
  request: { jsonrpc: '2.0', id, method: 'ping' },
  notifications: [],
});

describe('late answers', () => {
  it('an answer after the timeout is the late answer of the request that timed out, and is still kept as a stray', async () => {
    const channel = new SingleChannel(() => {});
    const sent = exchange(1);
    const settled = await channel.await(sent, 1, 20);
    expect(settled.failure).toEqual({ kind: 'timeout', message: 'no response to id 1 within 20 ms' });
    expect(lateAnswerSoFar(sent)).toBeUndefined();
    channel.receive('{"jsonrpc":"2.0","id":1,"result":{}}');
    const late = await lateAnswer(sent);
    expect(late).toMatchObject({ timeoutMs: 20, endedOn: 'timeout', response: { jsonrpc: '2.0', id: 1, result: {} } });
    expect(late!.afterMs).toBeGreaterThanOrEqual(20);
    expect(channel.strays().map((s) => s.kind)).toEqual(['unknown-id']);
  });

  it('none comes when the channel ends, and a request that never timed out has none', async () => {
    const channel = new SingleChannel(() => {});
    const sent = exchange(1);
    await channel.await(sent, 1, 10);
    channel.end({ kind: 'target-exited', message: 'gone' });
    expect(await lateAnswer(sent)).toBeUndefined();
    expect(await lateAnswer(exchange(2))).toBeUndefined();
  });

  it('a line that is not JSON, before any that is, ends the wait half a second later; one after JSON is only noise', async () => {
    const channel = new SingleChannel(() => {});
    const sent = exchange(1);
    const waiting = channel.await(sent, 1, 60_000);
    channel.receive('hello, I am a server');
    const settled = await waiting;
    expect(settled.failure).toEqual({
      kind: 'malformed',
      message:
        'the target wrote 1 line that is not JSON-RPC: `hello, I am a server`, and no answer to id 1 within ' +
        '500 ms after it',
    });
    channel.receive('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(lateAnswerSoFar(sent)).toMatchObject({ endedOn: 'unreadable' });

    const next = exchange(2);
    const answered = channel.await(next, 2, 60_000);
    channel.receive('more chatter');
    setTimeout(() => channel.receive('{"jsonrpc":"2.0","id":2,"result":{}}'), 700);
    expect((await answered).failure).toBeUndefined();
  });

  it('the grace is the timeout, from 2 s to 10 s', () => {
    expect([30, 5000, 60_000].map(lateGraceMs)).toEqual([2000, 5000, 10_000]);
  });
});
