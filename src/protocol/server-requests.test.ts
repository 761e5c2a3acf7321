import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_INITIALIZE_REVISION, LATEST_REVISION } from '../core/revision.js';
import { StdioTransport } from '../transport/stdio.js';
import { McpClient } from './client.js';
import { TargetGoneError } from './errors.js';
import { MAX_SERVER_REQUESTS_ANSWERED } from './server-requests.js';

/**
 * A stdio target that, for each request of ours, first sends `count` requests of its own with `method` and waits for
 * all their answers, then answers ours with them.
 */
function asking(method: string, count = 1): string {
  const file = join(mkdtempSync(join(tmpdir(), 'asking-target-')), 'target.cjs');
  /* eslint-disable max-len -- the source of a stand-in server, written out as it is */
  writeFileSync(
    file,
    `const waiting = new Map(); let next = 0;
     require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
       const m = JSON.parse(line);
       if (m.method === undefined) { const w = waiting.get(m.id); waiting.delete(m.id); return w && w(m); }
       if (m.id === undefined) return;
       const answers = [];
       for (let i = 0; i < ${count}; i += 1) {
         const id = 'srv-' + next++;
         waiting.set(id, (answer) => {
           answers.push(answer);
           if (answers.length === ${count}) console.log(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { answers: answers.slice(0, 3), count: answers.length } }));
         });
         console.log(JSON.stringify({ jsonrpc: '2.0', id, method: ${JSON.stringify(method)} }));
       }
     });`,
    /* eslint-enable max-len */
  );
  return `${process.execPath} ${file}`;
}

const clients: McpClient[] = [];
async function client(
  command: string,
  wire: typeof LATEST_INITIALIZE_REVISION | typeof LATEST_REVISION,
  timeoutMs = 3000,
): Promise<McpClient> {
  const c = new McpClient(new StdioTransport({ command, timeoutMs }), { name: 'test', version: '1' });
  clients.push(c);
  await c.transport.start();
  c.wire = wire;
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.transport.close()));
});

describe('requests of the server, answered on the initialize wire', () => {
  it('answers ping with {}, roots/list with no roots, and anything else with -32601; each is kept with its answer', async () => {
    for (const [method, answer] of [
      ['ping', { result: {} }],
      ['roots/list', { result: { roots: [] } }],
      ['sampling/createMessage', { error: { code: -32601, message: 'Method not found: sampling/createMessage' } }],
    ] as const) {
      const c = await client(asking(method), LATEST_INITIALIZE_REVISION);
      const exchange = await c.request('tools/list');
      expect(exchange.response, method).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { answers: [{ jsonrpc: '2.0', id: 'srv-0', ...answer }], count: 1 },
      });
      expect(exchange.notifications).toEqual([{ jsonrpc: '2.0', id: 'srv-0', method }]);
      expect(c.transport.strays()).toMatchObject([
        { kind: 'server-request', data: { id: 'srv-0', method }, answer: { id: 'srv-0', ...answer } },
      ]);
    }
  });

  it(`answers at most ${MAX_SERVER_REQUESTS_ANSWERED} requests of a flood; a request of ours that then times out names the one left unanswered`, async () => {
    const c = await client(asking('ping', MAX_SERVER_REQUESTS_ANSWERED + 1), LATEST_INITIALIZE_REVISION, 2000);
    const error = await c.request('tools/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetGoneError);
    const failure = (error as TargetGoneError).exchange.failure!;
    expect(failure.kind).toBe('timeout');
    expect((error as TargetGoneError).unansweredRequest).toEqual({
      jsonrpc: '2.0',
      id: `srv-${MAX_SERVER_REQUESTS_ANSWERED}`,
      method: 'ping',
    });
    expect(failure.message).toMatch(
      /the server sent the request ping \(id "srv-10000"\) and may be waiting for its answer: .* at most 10000 requests/,
    );
    // The evidence stays bounded too: the first requests are kept with their answers, the rest only counted.
    expect(c.transport.strays()).toHaveLength(1000);
    expect(c.transport.strays()[0]).toMatchObject({ data: { id: 'srv-0' }, answer: { id: 'srv-0', result: {} } });
  });
});

describe('requests of the server on 2026-07-28', () => {
  it('are left unanswered, and a request of ours that times out meanwhile names the request the server waits on', async () => {
    // The bound covers the target's start too, so it leaves room for a loaded machine.
    const c = await client(asking('roots/list'), LATEST_REVISION, 2500);
    const error = await c.request('tools/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetGoneError);
    expect((error as TargetGoneError).message).toBe(
      'no response to id 1 within 2500 ms; meanwhile the server sent the request roots/list (id "srv-0") and ' +
        'may be waiting for its answer: a 2026-07-28 client sends no responses (basic/patterns: "Servers MUST ' +
        'NOT initiate JSON-RPC requests, and clients do not send JSON-RPC responses.")',
    );
    expect((error as TargetGoneError).unansweredRequest).toEqual({ jsonrpc: '2.0', id: 'srv-0', method: 'roots/list' });
    expect(c.transport.strays()).toEqual([
      {
        at: expect.any(String),
        seq: expect.any(Number),
        kind: 'server-request',
        data: { jsonrpc: '2.0', id: 'srv-0', method: 'roots/list' },
      },
    ]);
  });
});
