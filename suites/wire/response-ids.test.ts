import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.js';
import { idProblem } from './response-ids.js';

const exchange = (request: unknown, response: unknown): Exchange => ({ seq: 1, sentAt: '', durationMs: 0, request, response, notifications: [] });
const request = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x' } });
const wellFormed = () => true;

describe('idProblem', () => {
  it('accepts the same id with the same JSON type', () => {
    expect(idProblem(exchange(request(5), { jsonrpc: '2.0', id: 5, result: {} }), wellFormed)).toBeUndefined();
    expect(idProblem(exchange(request('a'), { jsonrpc: '2.0', id: 'a', error: { code: -32602, message: 'x' } }), wellFormed)).toBeUndefined();
  });

  it('refuses another id or another type, for results and for errors to well-formed requests', () => {
    expect(idProblem(exchange(request(1), { jsonrpc: '2.0', id: '1', result: {} }), wellFormed)).toBe('a result carries id "1" for request id 1');
    expect(idProblem(exchange(request(4), { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'x' } }), wellFormed)).toMatch(/^an error \(code -32602\) carries id null for request id 4/);
  });

  it('allows a null id where the request could not be read: a parse error, an invalid request, or a malformed probe of ours', () => {
    for (const code of [-32700, -32600]) expect(idProblem(exchange(request(4), { jsonrpc: '2.0', id: null, error: { code, message: 'x' } }), wellFormed)).toBeUndefined();
    expect(idProblem(exchange(request(4), { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'x' } }), () => false)).toBeUndefined();
    expect(idProblem(exchange('{"not json', { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'x' } }), wellFormed)).toBeUndefined();
    // Streamable HTTP lets a 403 for a bad Origin carry an error without an id; a 400 to a well-formed request may not.
    const forbidden = { ...exchange(request(4), { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden' } }), status: 403 };
    expect(idProblem(forbidden, wellFormed)).toBeUndefined();
    expect(idProblem({ ...forbidden, status: 400 }, wellFormed)).toMatch(/carries id null/);
  });
});
