import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../model/exchange.js';
import { HttpTransport } from '../transport/http.js';
import { CallTurns } from './call-turns.js';

const TOOLS = [
  { name: 'read', annotations: { readOnlyHint: true } },
  { name: 'Write', annotations: { readOnlyHint: false } },
  { name: 'unannotated' },
];

/** Calls that answer when told to, keeping a log of sends and answers. */
function harness(turns: CallTurns) {
  const log: string[] = [];
  const answers = new Map<string, () => void>();
  const call = (name: string, label = name) =>
    turns.take(name, {}, () => {
      log.push(`send ${label}`);
      return new Promise<Exchange>((resolve) =>
        answers.set(label, () => {
          log.push(`answer ${label}`);
          resolve({ seq: 0 } as unknown as Exchange);
        }),
      );
    });
  const answer = async (label: string) => {
    answers.get(label)!();
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  const settle = async () => {
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return { log, call, answer, settle };
}

describe('CallTurns', () => {
  it('lets read-only calls overlap and runs a call that may write alone, in arrival order', async () => {
    const turns = new CallTurns();
    turns.learn(TOOLS);
    const h = harness(turns);
    const calls = [h.call('read', 'r1'), h.call('read', 'r2'), h.call('Write', 'w'), h.call('read', 'r3')];
    await h.settle();
    expect(h.log).toEqual(['send r1', 'send r2']);
    await h.answer('r1');
    expect(h.log.at(-1)).toBe('answer r1');
    await h.answer('r2');
    expect(h.log.slice(-2)).toEqual(['answer r2', 'send w']);
    await h.answer('w');
    expect(h.log.slice(-2)).toEqual(['answer w', 'send r3']);
    await h.answer('r3');
    await Promise.all(calls);
  });

  it('never has two calls that may write in flight, unannotated tools included', async () => {
    const turns = new CallTurns();
    turns.learn(TOOLS);
    const h = harness(turns);
    const calls = [h.call('Write', 'w1'), h.call('unannotated', 'u'), h.call('Write', 'w2')];
    await h.settle();
    expect(h.log).toEqual(['send w1']);
    await h.answer('w1');
    expect(h.log.at(-1)).toBe('send u');
    await h.answer('u');
    await h.answer('w2');
    await Promise.all(calls);
    expect(h.log).toEqual(['send w1', 'answer w1', 'send u', 'answer u', 'send w2', 'answer w2']);
  });

  it('runs a name alone before the listing is known, and an unlisted name that loosely matches a writer', () => {
    const turns = new CallTurns();
    expect(turns.runsAlone('read')).toBe(true);
    turns.learn(TOOLS);
    expect(turns.runsAlone('read')).toBe(false);
    expect(turns.runsAlone('no_such_tool')).toBe(false);
    expect(turns.runsAlone('WRITE')).toBe(true);
    expect(turns.runsAlone(42)).toBe(true);
    turns.learn([{ name: 'read', annotations: {} }]);
    expect(turns.runsAlone('read')).toBe(true);
  });

  it('in a sandbox every call runs alone, between the observer calls', async () => {
    const seen: string[] = [];
    const turns = new CallTurns({
      allAlone: true,
      observer: {
        before: async () => void seen.push('before'),
        after: async (call) => void seen.push(`after ${call?.tool ?? 'start-up'}`),
      },
    });
    turns.learn(TOOLS);
    const h = harness(turns);
    const calls = [h.call('read', 'r1'), h.call('read', 'r2')];
    await h.settle();
    expect(h.log).toEqual(['send r1']);
    await h.answer('r1');
    await h.settle();
    await h.answer('r2');
    await Promise.all(calls);
    expect(seen).toEqual(['before', 'after read', 'before', 'after read']);
    expect(h.log).toEqual(['send r1', 'answer r1', 'send r2', 'answer r2']);
    await turns.outsideCalls(async () => void seen.push('starting'));
    expect(seen.slice(-3)).toEqual(['before', 'starting', 'after start-up']);
  });

  it('outside a sandbox, work outside calls neither waits nor is observed', async () => {
    const turns = new CallTurns();
    const h = harness(turns);
    const call = h.call('Write', 'w');
    await h.settle();
    let ran = false;
    await turns.outsideCalls(async () => void (ran = true));
    expect(ran).toBe(true);
    await h.answer('w');
    await call;
  });

  it('gives the turn back when the send throws', async () => {
    const turns = new CallTurns();
    await expect(turns.take('x', {}, () => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    const h = harness(turns);
    const call = h.call('x');
    await h.settle();
    expect(h.log).toEqual(['send x']);
    await h.answer('x');
    await call;
  });

  it('over Streamable HTTP, a call that may write waits until the server is done with one that timed out', async () => {
    // The server works on each call 400 ms and says when; the audit gives up on the first after 100 ms.
    const work: { id: number; start: number; end: number }[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => {
        const id = (JSON.parse(body) as { id: number }).id;
        const start = performance.now();
        setTimeout(() => {
          work.push({ id, start, end: performance.now() });
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } }));
        }, 400);
      });
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const transport = new HttpTransport({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      timeoutMs: 100,
    });
    try {
      const turns = new CallTurns();
      turns.learn(TOOLS);
      const call = (id: number) =>
        turns.take('Write', {}, () =>
          transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'Write' } }, id),
        );
      const [first, second] = await Promise.all([call(1), call(2)]);
      expect([first.failure?.kind, second.failure?.kind]).toEqual(['timeout', 'timeout']);
      await turns.abandonedSettled();
      expect(work.map((w) => w.id)).toEqual([1, 2]);
      expect(work[1]!.start).toBeGreaterThanOrEqual(work[0]!.end);
    } finally {
      await transport.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
