import { specUrl } from '../../src/spec-links.js';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.js';
import type { Revision } from '../../src/core/revision.js';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import { unknownTool } from './tool-calls.js';
import { validArgumentsAccepted } from './tool-results.js';

/** A server listing one callable tool, `Echo`, that runs it whatever the case of the name, and rejects other names. */
function context(wire: Revision): CheckContext & { sent: string[] } {
  const sent: string[] = [];
  let seq = 0;
  const page = { result: { tools: [{ name: 'Echo', inputSchema: { type: 'object' } }] } };
  return {
    revision: wire,
    sent,
    tools: async () => ({ pages: [page] }),
    mayCall: () => true,
    client: {
      request: async (method: string, params: { name: string }): Promise<Exchange> => {
        sent.push(params.name);
        seq += 1;
        const answer =
          params.name.toLowerCase() === 'echo'
            ? { result: { content: [{ type: 'text', text: 'ran' }] } }
            : { error: { code: -32602, message: 'Unknown tool' } };
        return {
          seq,
          sentAt: '',
          durationMs: 0,
          request: { jsonrpc: '2.0', id: seq, method, params },
          response: { jsonrpc: '2.0', id: seq, ...answer },
          notifications: [],
        };
      },
    },
  } as unknown as CheckContext & { sent: string[] };
}

describe('tools.err.unknown-tool per revision', () => {
  it('sends the case-swapped name only where tool names are case-sensitive (2025-11-25 on), and warns there', async () => {
    for (const wire of ['2026-07-28', '2025-11-25'] as const) {
      const ctx = context(wire);
      const [outcome] = await unknownTool.run(ctx);
      expect(ctx.sent, wire).toEqual(['mtc_no_such_tool_5f3a9c', 'eCHO']);
      expect(toResult(unknownTool, outcome!, 0, wire), wire).toMatchObject({
        status: 'warn',
        keywordText: 'descriptive',
      });
    }
  });

  it('before 2025-11-25 calls only a made-up name, and passes its JSON-RPC error quoting that revision', async () => {
    for (const wire of ['2025-06-18', '2025-03-26', '2024-11-05'] as const) {
      const ctx = context(wire);
      const [outcome] = await unknownTool.run(ctx);
      expect(ctx.sent, wire).toEqual(['mtc_no_such_tool_5f3a9c']);
      const result = toResult(unknownTool, outcome!, 0, wire);
      expect(result, wire).toMatchObject({
        status: 'pass',
        quote: 'Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools',
      });
      expect(result.specUrl).toBe(`https://modelcontextprotocol.io/specification/${wire}/server/tools#error-handling`);
    }
  });
});

describe('tools.err.tool-errors-in-result per revision', () => {
  it("rests on schema.json's SHOULD wherever it sits in that revision, linked to that revision's schema", () => {
    const where = {
      '2025-11-25': '$defs/CallToolResult/properties/isError',
      '2025-06-18': 'definitions/CallToolResult/properties/isError',
      '2024-11-05': 'definitions/CallToolResult',
    } as const;
    for (const [wire, pointer] of Object.entries(where) as [Revision, string][]) {
      const result = toResult(validArgumentsAccepted, { status: 'fail', message: 'm' }, 0, wire);
      expect(result, wire).toMatchObject({
        status: 'warn',
        keywordText: 'SHOULD',
        specRef: `schema.json#/${pointer}/description`,
      });
      expect(result.specUrl).toBe(specUrl(`schema.json#/${pointer}/description`, wire));
      expect(result.specUrl).toContain(wire);
    }
  });
});
