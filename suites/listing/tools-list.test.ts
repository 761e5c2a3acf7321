import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import type { Revision } from '../../src/core/revision.js';
import { toolsListResponds } from './tools-list.js';

/** tools/list answered with -32603 by a server that declares tools. */
function erroringList(wire: Revision): CheckContext {
  const exchange = { seq: 1, response: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } } };
  return {
    revision: wire,
    tools: async () => ({
      pages: [{ exchange }],
      tools: [],
      stop: { kind: 'error', message: 'tools/list answered -32603' },
    }),
    capabilities: async () => ({ capabilities: { tools: {} } }),
  } as unknown as CheckContext;
}

describe('tools.list.respond when tools/list answers an error', () => {
  it.each([
    ['2026-07-28', 'fail', 'MUST'],
    ['2025-11-25', 'warn', 'schema.json structural rule'],
    ['2024-11-05', 'warn', 'schema.json structural rule'],
  ] as const)(
    '%s: %s (only 2026-07-28 says servers MUST respond with the set of tools)',
    async (wire, status, keywordText) => {
      const [outcome] = await toolsListResponds.run(erroringList(wire));
      const result = toResult(toolsListResponds, outcome!, 0, wire);
      expect([result.status, result.keywordText]).toEqual([status, keywordText]);
    },
  );
});
