import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.js';
import type { Outcome } from '../../src/model/check.js';
import { idProblem, responseIds } from './response-ids.js';

const exchange = (request: unknown, response: unknown): Exchange => ({
  seq: 1,
  sentAt: '',
  durationMs: 0,
  request,
  response,
  notifications: [],
});
const request = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x' } });
const wellFormed = () => true;

describe('idProblem', () => {
  it('accepts the same id with the same JSON type', () => {
    expect(idProblem(exchange(request(5), { jsonrpc: '2.0', id: 5, result: {} }), wellFormed)).toBeUndefined();
    expect(
      idProblem(exchange(request('a'), { jsonrpc: '2.0', id: 'a', error: { code: -32602, message: 'x' } }), wellFormed),
    ).toBeUndefined();
  });

  it('refuses another id or another type, for results and for errors to well-formed requests', () => {
    expect(idProblem(exchange(request(1), { jsonrpc: '2.0', id: '1', result: {} }), wellFormed)).toBe(
      'a result carries id "1" for request id 1',
    );
    expect(
      idProblem(exchange(request(4), { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'x' } }), wellFormed),
    ).toMatch(/^an error \(code -32602\) carries id null for request id 4/);
  });

  it('allows a null id where the request could not be read: a parse error, an invalid request, or a malformed probe of ours', () => {
    for (const code of [-32700, -32600])
      expect(
        idProblem(exchange(request(4), { jsonrpc: '2.0', id: null, error: { code, message: 'x' } }), wellFormed),
      ).toBeUndefined();
    expect(
      idProblem(exchange(request(4), { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'x' } }), () => false),
    ).toBeUndefined();
    expect(
      idProblem(
        exchange('{"not json', { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'x' } }),
        wellFormed,
      ),
    ).toBeUndefined();
    // Streamable HTTP lets a 403 for a bad Origin carry an error without an id; a 400 to a well-formed request may not.
    const forbidden = {
      ...exchange(request(4), { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden' } }),
      status: 403,
    };
    expect(idProblem(forbidden, wellFormed)).toBeUndefined();
    expect(idProblem({ ...forbidden, status: 400 }, wellFormed)).toMatch(/carries id null/);
  });
});

describe('base.id.same', () => {
  it('leaves the id of a 400 to a request whose MCP-Protocol-Version header we broke unjudged, and judges the same answer to a valid header', () => {
    const answer = {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Bad Request: Unsupported protocol version' },
    };
    const sent = (version: string): Exchange => ({
      ...exchange(request(5), answer),
      status: 400,
      requestHeaders: { 'MCP-Protocol-Version': version },
    });
    const run = (e: Exchange) =>
      responseIds.run({ revision: '2025-11-25', exchanges: () => [e] } as never) as Outcome[];
    expect(run(sent('1900-01-01'))[0]).toMatchObject({ status: 'pass' });
    expect(run(sent('2025-11-25'))[0]).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/carries id null for request id 5/),
    });
  });

  it('on 2026-07-28 leaves the id of a refusal for a missing MCP-Protocol-Version, Mcp-Method or Mcp-Name unjudged too, but not one for a header that disagrees with the body', () => {
    const answer = { jsonrpc: '2.0', id: null, error: { code: -32020, message: 'Bad Request: header missing' } };
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'x', arguments: {}, _meta: meta } };
    const all = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'x' };
    const without = (name: keyof typeof all) => Object.fromEntries(Object.entries(all).filter(([key]) => key !== name));
    const sent = (requestHeaders: Record<string, string> | undefined): Exchange => ({
      ...exchange(call, answer),
      status: 400,
      ...(requestHeaders ? { requestHeaders } : {}),
    });
    const run = (e: Exchange) =>
      (responseIds.run({ revision: '2026-07-28', exchanges: () => [e] } as never) as Outcome[])[0]!.status;
    expect([
      run(sent(without('MCP-Protocol-Version'))),
      run(sent(without('Mcp-Method'))),
      run(sent(without('Mcp-Name'))),
    ]).toEqual(['pass', 'pass', 'pass']);
    // Headers that are all there (or stdio, which has none) leave a null id a fail; so does an Mcp-Method other than
    // the body's, which takes reading the body to tell.
    expect([run(sent(all)), run(sent(undefined)), run(sent({ ...all, 'Mcp-Method': 'tools/list' }))]).toEqual([
      'fail',
      'fail',
      'fail',
    ]);
  });
});
