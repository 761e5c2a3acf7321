import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.js';
import {
  invalidCharVerdict,
  judgeInvalidChars,
  judgeNameCase,
  judgeUnset,
  type InvalidCharProbes,
  type NameCaseProbes,
  type UnsetProbe,
} from './param-headers.js';

const exchange = (status: number | undefined, response?: unknown): Exchange => ({
  seq: 1,
  sentAt: '',
  durationMs: 0,
  request: { jsonrpc: '2.0', id: 1, method: 'tools/call' },
  ...(response === undefined ? {} : { response }),
  ...(status === undefined ? { failure: { kind: 'connection', message: 'socket hang up' } } : { status }),
  notifications: [],
});
const error = (code: number, status = 400) =>
  exchange(status, { jsonrpc: '2.0', id: 1, error: { code, message: 'x' } });
const result = (isError?: boolean) =>
  exchange(200, { jsonrpc: '2.0', id: 1, result: { content: [], ...(isError ? { isError } : {}) } });
const bare400 = () => exchange(400);

describe('xmcp.server.no-expect-null-or-absent', () => {
  const unset = (absent: Exchange, nul: Exchange, schemaAccepts = false): UnsetProbe[] => [
    { how: 'absent', schemaAccepts: true, exchange: absent },
    { how: 'null', schemaAccepts, exchange: nul },
  ];
  const judge = (probes: UnsetProbe[], correct = result()) =>
    judgeUnset('Mcp-Param-Region', ['region'], correct, probes);

  it('passes a result, an isError result or a -32602 (the schema may refuse null)', () => {
    expect(judge(unset(result(), result(true))).status).toBe('pass');
    expect(judge(unset(result(), error(-32602)))).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/region null \(the inputSchema does not accept that.*HTTP 400 with error -32602/),
    });
  });

  it('fails a -32020 to either probe, whatever the HTTP status', () => {
    const nul = judge(unset(result(), error(-32020)));
    expect(nul).toMatchObject({
      status: 'fail',
      expected: expect.stringMatching(/no -32020.*argument null there is no Mcp-Param-Region to expect/),
    });
    expect(nul.evidence).toHaveLength(2);
    expect(judge(unset(error(-32020, 200), result(true))).status).toBe('fail');
  });

  it('skips when correct headers are rejected too, or when nothing answered in JSON-RPC', () => {
    expect(judge(unset(error(-32020), error(-32020)), error(-32020)).status).toBe('skip');
    expect(judge(unset(bare400(), exchange(undefined))).status).toBe('skip');
  });

  it('passes on one JSON-RPC answer and says the other was not judged', () => {
    expect(judge(unset(result(), bare400()))).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/not judged \(no JSON-RPC answer\)/),
    });
  });
});

describe('xmcp.server.reject-invalid-chars', () => {
  const found = (answers: Exchange[], baseline = result(), matchesBody = true): InvalidCharProbes => ({
    probes: answers.map((e, i) => ({ label: `probe ${i}`, exchange: e })),
    matchesBody,
    baseline,
  });
  const judge = (f: InvalidCharProbes) => judgeInvalidChars('Mcp-Param-Region', f);

  it('classifies answers', () => {
    expect(invalidCharVerdict(error(-32020))).toBe('rejected');
    expect(invalidCharVerdict(bare400())).toBe('rejected-by-http');
    expect(invalidCharVerdict(result())).toBe('accepted');
    expect(invalidCharVerdict(result(true))).toBe('accepted');
    expect(invalidCharVerdict(error(-32020, 200))).toBe('other');
    expect(invalidCharVerdict(error(-32602))).toBe('other');
    expect(invalidCharVerdict(exchange(undefined))).toBe('no-answer');
  });

  it('passes 400/-32020, and a bare 400 from the HTTP layer, saying so', () => {
    expect(judge(found([error(-32020), error(-32020)])).status).toBe('pass');
    expect(judge(found([error(-32020), bare400()]))).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/HTTP layer refusing the bytes/),
    });
    expect(judge(found([error(-32020)], result(), false))).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/also differs from the body/),
    });
  });

  it('fails any probe that was served, even with isError, and names every probe', () => {
    const verdict = judge(found([result(), error(-32020)]));
    expect(verdict).toMatchObject({
      status: 'fail',
      message: 'accepted: probe 0: HTTP 200 with a result; while probe 1: HTTP 400 with error -32020',
    });
    expect(verdict.expected).toMatch(/HTTP 400 with -32020/);
    expect(judge(found([error(-32020), result(true)])).status).toBe('fail');
  });

  it('fails another rejection when the same body with a correct header is served, skips it otherwise', () => {
    expect(judge(found([error(-32602), error(-32020)]))).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/not with HTTP 400 and -32020/),
    });
    expect(judge(found([error(-32020, 200)])).status).toBe('fail');
    expect(judge(found([error(-32602)], error(-32602))).status).toBe('skip');
  });

  it('skips a probe with no HTTP answer', () => {
    expect(judge(found([error(-32020), exchange(undefined)])).status).toBe('skip');
  });
});

describe('http.hdr.name-ci', () => {
  const sent = (e: Exchange, names: string[]): Exchange => ({
    ...e,
    requestHeaders: Object.fromEntries([['Content-Type', 'application/json'], ...names.map((n) => [n, 'v'])]),
  });
  const found = (baseline: Exchange, upper: Exchange, lower: Exchange): NameCaseProbes => ({
    what: 'tools/call of search_docs',
    baseline: sent(baseline, ['MCP-Protocol-Version', 'Mcp-Method']),
    variants: [
      { spelling: 'upper case', exchange: sent(upper, ['MCP-PROTOCOL-VERSION', 'MCP-METHOD']) },
      { spelling: 'lower case', exchange: sent(lower, ['mcp-protocol-version', 'mcp-method']) },
    ],
  });

  it('passes when every spelling is served, an isError result included', () => {
    expect(judgeNameCase(found(result(), result(), result(true)))).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(
        /upper case \(MCP-PROTOCOL-VERSION, MCP-METHOD\): HTTP 200 with a result; lower case/,
      ),
    });
  });

  it('fails a spelling that is refused while the usual one is served, naming the header names sent', () => {
    const verdict = judgeNameCase(found(result(), error(-32020), result()));
    expect(verdict).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(
        /served with MCP-Protocol-Version, Mcp-Method .*not with the header names in upper case \(MCP-PROTOCOL-VERSION, MCP-METHOD\): HTTP 400 with error -32020$/,
      ),
    });
    expect(verdict.evidence).toHaveLength(3);
    expect(judgeNameCase(found(result(), result(), bare400())).status).toBe('fail');
  });

  it('skips when the usual spelling is not served, or a spelling got no HTTP answer', () => {
    expect(judgeNameCase(found(error(-32602), error(-32020), error(-32020))).status).toBe('skip');
    expect(judgeNameCase(found(result(), exchange(undefined), result())).status).toBe('skip');
  });
});
