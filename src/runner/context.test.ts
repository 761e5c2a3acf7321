import { describe, expect, it } from 'vitest';
import type { JsonRpcId } from '../core/jsonrpc.js';
import type { Exchange } from '../model/exchange.js';
import { McpClient } from '../protocol/client.js';
import type { Transport } from '../transport/types.js';
import { CheckContext } from './context.js';

/** A transport of this kind on which tools/call always times out and everything else is answered at once. */
function slowTools(kind: Transport['kind']): { transport: Transport; sent: unknown[] } {
  const sent: unknown[] = [];
  const transport: Transport = {
    kind,
    description: 'fake',
    start: async () => undefined,
    send: async (message: unknown, id: JsonRpcId | undefined) => {
      sent.push(message);
      const exchange: Exchange = {
        seq: sent.length,
        sentAt: new Date().toISOString(),
        durationMs: 0,
        request: message,
        notifications: [],
      };
      if ((message as { method?: string }).method === 'tools/call')
        exchange.failure = { kind: 'timeout', message: 'no response within 10 ms' };
      else if (id !== undefined) exchange.response = { jsonrpc: '2.0', id, result: {} };
      return exchange;
    },
    strays: () => [],
    stderr: () => '',
    close: async () => undefined,
  };
  return { transport, sent };
}

describe('a tool call that outlives --timeout', () => {
  for (const [kind, cancelled] of [
    ['stdio', true],
    ['http+sse', true],
    ['http', false],
  ] as const) {
    it(`over ${kind}: ${cancelled ? 'notifications/cancelled, then a read marker, on the one channel' : 'nothing more (the aborted request was its cancellation)'}`, async () => {
      const { transport, sent } = slowTools(kind);
      const client = new McpClient(transport, { name: 't', version: '1' });
      client.wire = '2024-11-05';
      const ctx = new CheckContext(client, transport, { wire: '2024-11-05', reason: 'test' }, { timeoutMs: 10 });
      const call = await ctx.callTool('slow', {});
      expect(call.failure?.kind).toBe('timeout');
      await Promise.all(ctx.cancellations().map((c) => c.marker));
      const methods = sent.map((m) => (m as { method: string }).method);
      expect(methods).toEqual(cancelled ? ['tools/call', 'notifications/cancelled', 'ping'] : ['tools/call']);
      expect(ctx.oneChannel).toBe(cancelled);
    });
  }
});
