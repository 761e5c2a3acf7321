import { describe, expect, it } from 'vitest';
import type { Exchange } from '../model/exchange.js';
import type { Revision } from '../core/revision.js';
import { ResultSchemaCache } from './result-schemas.js';

let seq = 0;
const answered = (method: string, result: unknown): Exchange => {
  seq += 1;
  return {
    seq,
    sentAt: '',
    durationMs: 0,
    request: { jsonrpc: '2.0', id: seq, method },
    response: { jsonrpc: '2.0', id: seq, result },
    notifications: [],
  } as Exchange;
};

/** The checks each issue of one answer goes to, judged on `wire`. */
const checksOn = (wire: Revision, method: string, result: unknown) =>
  new ResultSchemaCache()
    .issues(answered(method, result), wire)
    .map((i) => `${i.check} ${i.instancePath}`)
    .sort();

describe('results are judged by the schema of the revision agreed', () => {
  it('a tool with an array output schema breaks a rule from 2025-06-18 on, and none before', () => {
    const listing = { tools: [{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } }] };
    expect(checksOn('2025-03-26', 'tools/list', listing)).toEqual([]);
    expect(checksOn('2025-06-18', 'tools/list', listing)).toEqual(['tools.tool.shape /tools/0/outputSchema/type']);
  });

  it('an audio block is invalid content on 2024-11-05 only', () => {
    const result = { content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] };
    expect(checksOn('2025-03-26', 'tools/call', result)).toEqual([]);
    expect(checksOn('2024-11-05', 'tools/call', result)).toEqual(['schema.result.valid /content/0/type']);
  });

  it('the initialize result of each revision: completions is a capability from 2025-03-26 on', () => {
    const result = {
      protocolVersion: '2024-11-05',
      capabilities: { completions: true, tools: { listChanged: 'yes' } },
      serverInfo: { name: 's', version: '1' },
    };
    expect(checksOn('2024-11-05', 'initialize', result)).toEqual([
      'tools.cap.list-changed-type /capabilities/tools/listChanged',
    ]);
    expect(checksOn('2025-03-26', 'initialize', result)).toEqual([
      'schema.result.valid /capabilities/completions',
      'tools.cap.list-changed-type /capabilities/tools/listChanged',
    ]);
  });

  it('before 2026-07-28 a tools/call result is a CallToolResult whatever its resultType says (a member the schema does not name)', () => {
    const result = { resultType: 'input_required', requestState: 'x' };
    expect(checksOn('2025-11-25', 'tools/call', result)).toEqual(['schema.result.valid ']);
    expect(checksOn('2026-07-28', 'tools/call', result)).toEqual([]);
  });
});
