import { describe, expect, it } from 'vitest';
import { floorMessages } from '../bench/floor.mjs';

const line = (message: unknown) => JSON.stringify(message);

describe('bench floor: the messages a bare client sends again', () => {
  it('stdio: every line of every connection, in order, each with the id its answer comes under; listen streams left out', () => {
    const entries = [
      { stdio: 10, line: line({ jsonrpc: '2.0', id: 1, method: 'server/discover' }) },
      { stdio: 11, line: line({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) },
      { stdio: 10, line: line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }) },
      { stdio: 10, line: line({ jsonrpc: '2.0', id: 'x', method: 'subscriptions/listen' }) },
      { stdio: 10, line: '{not json' },
      { stdio: 10, line: line([{ jsonrpc: '2.0', id: 2, method: 'tools/list' }]) },
      { stdio: 10, line: line({ jsonrpc: '2.0', id: 7, result: {} }) },
      { http: { method: 'POST', path: '/mcp', headers: {}, body: '{}' } },
    ];
    const { messages, skipped } = floorMessages(entries, 'stdio');
    expect(messages.map((m: { id: unknown }) => m.id)).toEqual([1, 1, undefined, null, null, undefined]);
    // Which target process each went to, for the floor with one process per connection.
    expect(messages.map((m: { connection: unknown }) => m.connection)).toEqual([10, 11, 10, 10, 10, 10]);
    expect(skipped).toBe(1);
  });

  it('HTTP: every request as sent, but GETs and listen POSTs, which may stay open', () => {
    const post = (body: unknown) => ({
      http: { method: 'POST', path: '/mcp', headers: { 'mcp-method': 'x' }, body: line(body) },
    });
    const entries = [
      post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      { http: { method: 'GET', path: '/mcp', headers: {} } },
      { http: { method: 'DELETE', path: '/mcp', headers: {} } },
      post({ jsonrpc: '2.0', id: 2, method: 'subscriptions/listen' }),
      { stdio: 3, line: '{}' },
    ];
    const { messages, skipped } = floorMessages(entries, 'http');
    expect(messages).toEqual([entries[0]!.http, entries[2]!.http]);
    expect(skipped).toBe(2);
  });
});
