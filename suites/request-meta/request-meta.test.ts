import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import type { Revision } from '../../src/core/revision.js';
import { unsupportedVersionStatus } from './request-meta.js';

/** A server over HTTP that answers every request with this status and body, recording the headers it was sent. */
function answering(
  wire: Revision,
  status: number,
  response: Record<string, unknown>,
  sent: Record<string, string | null>[] = [],
): CheckContext {
  return {
    revision: wire,
    transportKind: 'http',
    memo: (_key: string, work: () => Promise<unknown>) => work(),
    client: {
      statelessMeta: () => ({}),
      request: async (method: string, _params: unknown, options: { headers: Record<string, string | null> }) => {
        sent.push(options.headers);
        return {
          seq: sent.length,
          request: { jsonrpc: '2.0', id: 1, method },
          response: { jsonrpc: '2.0', id: 1, ...response },
          status,
          notifications: [],
        };
      },
    },
  } as unknown as CheckContext;
}

describe('http.pv.unsupported on the initialize wire', () => {
  it.each(['2025-06-18', '2025-11-25'] as const)(
    '%s: a request with an unsupported MCP-Protocol-Version answered 200 fails, whatever its body',
    async (wire) => {
      const sent: Record<string, string | null>[] = [];
      const outcomes = await unsupportedVersionStatus.run(answering(wire, 200, { result: { tools: [] } }, sent));
      const [result] = outcomes.map((o) => toResult(unsupportedVersionStatus, o, 0, wire));
      expect(sent.map((h) => h['MCP-Protocol-Version'])).toEqual(['1900-01-01', '1900-01-01']);
      expect(result).toMatchObject({ status: 'fail', specRef: 'basic/transports#protocol-version-header' });
      expect(result!.quote).toBe(
        'If the server receives a request with an invalid or unsupported MCP-Protocol-Version, it MUST respond ' +
          'with 400 Bad Request.',
      );
      expect(result!.message).toBe(
        '2 answers to a request with MCP-Protocol-Version: 1900-01-01 came with HTTP 200 (tools/list), HTTP ' +
          '200 (tools/call)',
      );
    },
  );

  it('passes on 400 with any error body (the initialize revisions name no error code)', async () => {
    const outcomes = await unsupportedVersionStatus.run(
      answering('2025-06-18', 400, { error: { code: -32000, message: 'Bad Request: Unsupported protocol version' } }),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['pass']);
  });

  it("on 2026-07-28 judges only the answers that carried -32022 (a wrong error is version.unsupported-32022's finding)", async () => {
    const outcomes = await unsupportedVersionStatus.run(
      answering('2026-07-28', 200, { error: { code: -32000, message: 'no' } }),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['skip']);
  });
});
