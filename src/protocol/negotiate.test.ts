import { describe, expect, it } from 'vitest';
import type { Exchange } from '../model/exchange.js';
import type { Transport } from '../transport/types.js';
import { TargetUnavailableError } from '../transport/types.js';
import { McpClient } from './client.js';
import { RevisionRefusedError } from './errors.js';
import { classifyProbe, negotiateRevision } from './negotiate.js';

const exchange = (over: Partial<Exchange>): Exchange => ({
  seq: 1,
  sentAt: '',
  durationMs: 1,
  request: { jsonrpc: '2.0', id: 1, method: 'server/discover' },
  notifications: [],
  ...over,
});
const error = (code: number, data?: unknown) => ({ jsonrpc: '2.0', id: 1, error: { code, message: 'm', data } });

describe('era probe (basic/versioning#backward-compatibility)', () => {
  it('a DiscoverResult means modern', () => {
    expect(
      classifyProbe(
        exchange({ response: { jsonrpc: '2.0', id: 1, result: { supportedVersions: ['2026-07-28'] } } }),
        'stdio',
      ).era,
    ).toBe('modern');
  });
  it('recognised modern errors mean modern', () => {
    for (const code of [-32020, -32021])
      expect(classifyProbe(exchange({ response: error(code) }), 'http').era).toBe('modern');
  });
  it('-32022 without our version: modern but unsupported (no fallback to initialize)', () => {
    const verdict = classifyProbe(
      exchange({ response: error(-32022, { supported: ['2027-01-01'], requested: '2026-07-28' }) }),
      'stdio',
    );
    expect(verdict.era).toBe('unsupported');
    expect(verdict.why).toMatch(/2027-01-01/);
  });
  it('any other error, or silence, means legacy: the fallback is not keyed to one code', () => {
    for (const code of [-32601, -32602, -32600, -32000, 1])
      expect(classifyProbe(exchange({ response: error(code) }), 'stdio').era).toBe('legacy');
    expect(classifyProbe(exchange({ failure: { kind: 'timeout', message: 'no response' } }), 'stdio').era).toBe(
      'legacy',
    );
    expect(
      classifyProbe(
        exchange({ failure: { kind: 'http-status', message: 'HTTP 400 with empty body' }, status: 400 }),
        'http',
      ).era,
    ).toBe('legacy');
  });
  it('an unreachable or exited target is not a legacy server', () => {
    expect(() => classifyProbe(exchange({ failure: { kind: 'connection', message: 'ECONNREFUSED' } }), 'http')).toThrow(
      /cannot reach/,
    );
    expect(() => classifyProbe(exchange({ failure: { kind: 'target-exited', message: 'code 1' } }), 'stdio')).toThrow(
      /exited/,
    );
  });
});

/**
 * A stdio target that answers each method as `answers` says (a result, an error, or nothing), recording what it was
 * sent.
 */
function scripted(answers: Record<string, (params: Record<string, unknown>) => Partial<Exchange>>): {
  client: McpClient;
  sent: string[];
} {
  const sent: string[] = [];
  let seq = 0;
  const transport: Transport = {
    kind: 'stdio',
    description: 'scripted',
    start: async () => undefined,
    send: async (message) => {
      const { id, method, params } = message as { id?: number; method: string; params?: Record<string, unknown> };
      sent.push(method);
      const answer =
        answers[method]?.(params ?? {}) ??
        (id === undefined ? {} : { failure: { kind: 'timeout' as const, message: 'no response within 10 ms' } });
      const response = 'response' in answer ? { jsonrpc: '2.0', id, ...(answer.response as object) } : undefined;
      return {
        seq: (seq += 1),
        sentAt: '',
        durationMs: 1,
        request: message,
        notifications: [],
        ...answer,
        ...(response ? { response } : {}),
      };
    },
    strays: () => [],
    stderr: () => '',
    close: async () => undefined,
  };
  return { client: new McpClient(transport, { name: 'test', version: '1' }), sent };
}
const agrees = (version: unknown) => () => ({
  response: { result: { protocolVersion: version, capabilities: {}, serverInfo: { name: 's', version: '1' } } },
});
const refuses = () => ({ response: { error: { code: -32601, message: 'Method not found' } } });

describe('--revisions: offering exactly one revision', () => {
  it('an initialize revision the server agrees is audited on it', async () => {
    const { client, sent } = scripted({ initialize: (params) => agrees(params.protocolVersion)() });
    const negotiation = await negotiateRevision(client, '2025-03-26');
    expect(negotiation).toMatchObject({
      wire: '2025-03-26',
      reason: '--revisions: initialize agreed protocol version 2025-03-26',
    });
    expect(sent).toEqual(['initialize', 'notifications/initialized']);
  });

  it('another version answered, or an error, is a refusal naming the answer, and nothing follows the initialize', async () => {
    for (const [answer, why] of [
      [
        agrees('2025-11-25'),
        'initialize offered 2024-11-05, and the server answered with protocol version "2025-11-25"',
      ],
      [
        agrees('1999-01-01'),
        'initialize offered 2024-11-05, and the server answered with protocol version "1999-01-01"',
      ],
      [refuses, 'initialize answered error -32601: Method not found'],
    ] as const) {
      const { client, sent } = scripted({ initialize: answer });
      await expect(negotiateRevision(client, '2024-11-05')).rejects.toThrow(new RevisionRefusedError(why));
      expect(sent).toEqual(['initialize']);
    }
  });

  it('silence on initialize is a target that cannot be audited, not a refusal', async () => {
    const { client } = scripted({});
    await expect(negotiateRevision(client, '2025-06-18')).rejects.toThrow(TargetUnavailableError);
  });

  it('2026-07-28 is audited when server/discover works, else refused with what it answered; initialize is never sent', async () => {
    const discovers = scripted({
      'server/discover': () => ({ response: { result: { supportedVersions: ['2026-07-28'] } } }),
    });
    expect(await negotiateRevision(discovers.client, '2026-07-28')).toMatchObject({
      wire: '2026-07-28',
      discover: { seq: 1 },
    });
    for (const answers of [{ 'server/discover': refuses, initialize: agrees('2025-11-25') }, {}]) {
      const refusing = scripted(answers);
      await expect(negotiateRevision(refusing.client, '2026-07-28')).rejects.toThrow(RevisionRefusedError);
      expect(refusing.sent).toEqual(['server/discover']);
    }
  });
});
