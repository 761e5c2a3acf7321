import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.js';
import { judgeUnknownVersionAnswer, UNKNOWN_VERSION } from './version-negotiation.js';

const answered = (response: unknown): Exchange => ({
  seq: 1,
  sentAt: '',
  durationMs: 0,
  request: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: UNKNOWN_VERSION } },
  response,
  notifications: [],
});

describe('lifecycle.version-negotiation', () => {
  it('fails the echo of the unknown version, passes another version (known or not), and leaves an error or no version unjudged', () => {
    const result = (protocolVersion: unknown) =>
      answered({
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion, capabilities: {}, serverInfo: { name: 's', version: '1' } },
      });
    expect(judgeUnknownVersionAnswer(result(UNKNOWN_VERSION)).status).toBe('fail');
    expect(judgeUnknownVersionAnswer(result('2025-06-18'))).toMatchObject({
      status: 'pass',
      message: expect.stringContaining('a revision of MCP'),
    });
    expect(judgeUnknownVersionAnswer(result('2030-01-01'))).toMatchObject({
      status: 'pass',
      message: expect.stringContaining('does not know'),
    });
    expect(judgeUnknownVersionAnswer(result(undefined)).status).toBe('skip');
    const error = answered({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message: 'Unsupported protocol version',
        data: { supported: ['2024-11-05'], requested: UNKNOWN_VERSION },
      },
    });
    expect(judgeUnknownVersionAnswer(error)).toMatchObject({
      status: 'skip',
      message: expect.stringContaining('Error Handling example'),
    });
  });
});
