import { describe, expect, it } from 'vitest';
import type { Exchange } from '../model/exchange.js';
import { classifyProbe } from './negotiate.js';

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
    expect(classifyProbe(exchange({ response: { jsonrpc: '2.0', id: 1, result: { supportedVersions: ['2026-07-28'] } } }), 'stdio').era).toBe('modern');
  });
  it('recognised modern errors mean modern', () => {
    for (const code of [-32020, -32021]) expect(classifyProbe(exchange({ response: error(code) }), 'http').era).toBe('modern');
  });
  it('-32022 without our version: modern but unsupported (no fallback to initialize)', () => {
    const verdict = classifyProbe(exchange({ response: error(-32022, { supported: ['2027-01-01'], requested: '2026-07-28' }) }), 'stdio');
    expect(verdict.era).toBe('unsupported');
    expect(verdict.why).toMatch(/2027-01-01/);
  });
  it('any other error, or silence, means legacy: the fallback is not keyed to one code', () => {
    for (const code of [-32601, -32602, -32600, -32000, 1]) expect(classifyProbe(exchange({ response: error(code) }), 'stdio').era).toBe('legacy');
    expect(classifyProbe(exchange({ failure: { kind: 'timeout', message: 'no response' } }), 'stdio').era).toBe('legacy');
    expect(classifyProbe(exchange({ failure: { kind: 'http-status', message: 'HTTP 400 with empty body' }, status: 400 }), 'http').era).toBe('legacy');
  });
  it('an unreachable or exited target is not a legacy server', () => {
    expect(() => classifyProbe(exchange({ failure: { kind: 'connection', message: 'ECONNREFUSED' } }), 'http')).toThrow(/cannot reach/);
    expect(() => classifyProbe(exchange({ failure: { kind: 'target-exited', message: 'code 1' } }), 'stdio')).toThrow(/exited/);
  });
});
