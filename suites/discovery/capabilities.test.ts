import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import type { Revision } from '../../src/core/revision.js';
import { negotiatedCapabilitiesOnly } from './capabilities.js';

/** A session whose client declared no capability, in which the server asked for sampling/createMessage. */
function samplingUndeclared(wire: Revision): CheckContext {
  const initialize = {
    seq: 1,
    request: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: wire, capabilities: {} } },
    notifications: [],
  };
  const request = { jsonrpc: '2.0', id: 5, method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } };
  return {
    wire,
    negotiation: { initialize },
    strays: () => [{ kind: 'server-request', at: 'after tools/list', data: request }],
    exchanges: () => [initialize],
  } as unknown as CheckContext;
}

describe('lifecycle.capabilities.negotiated', () => {
  it.each([
    ['2025-11-25', 'fail', 'MUST'],
    ['2025-06-18', 'fail', 'MUST'],
    ['2025-03-26', 'warn', 'SHOULD'],
    ['2024-11-05', 'warn', 'SHOULD'],
  ] as const)(
    '%s: a request of an undeclared capability is a %s (Both parties %s: Only use capabilities that were ' +
      'successfully negotiated)',
    async (wire, status, keyword) => {
      const [outcome] = await negotiatedCapabilitiesOnly.run(samplingUndeclared(wire));
      const result = toResult(negotiatedCapabilitiesOnly, outcome!, 0, wire);
      expect([result.status, result.keywordText, result.specUrl]).toEqual([
        status,
        keyword,
        `https://modelcontextprotocol.io/specification/${wire}/basic/lifecycle#operation`,
      ]);
      expect(result.message).toContain('sampling/createMessage once');
    },
  );
});
