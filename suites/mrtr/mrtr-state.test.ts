import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import type { Exchange } from '../../src/model/exchange.js';
import { classify, flipOne, requestStateUntrusted, requestStateVerified, variantsOf } from './mrtr-state.js';

type Answer = { result?: unknown; error?: unknown; status?: number; failure?: Exchange['failure'] };

const inputRequired = (state: string) => ({
  resultType: 'input_required',
  inputRequests: {
    confirm: {
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Sure?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      },
    },
  },
  requestState: state,
});
const COMPLETE = { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };

const exchange = (id: number, params: unknown, answer: Answer): Exchange => ({
  seq: id,
  sentAt: '2026-07-28T00:00:00.000Z',
  durationMs: 1,
  request: { jsonrpc: '2.0', id, method: 'tools/call', params },
  ...(answer.failure
    ? {}
    : { response: { jsonrpc: '2.0', id, ...(answer.error ? { error: answer.error } : { result: answer.result }) } }),
  ...(answer.status !== undefined ? { status: answer.status } : {}),
  ...(answer.failure ? { failure: answer.failure } : {}),
  notifications: [],
});

/**
 * A context whose tools each answered input_required to the capability-less call. `answer` decides every later
 * request by tool and requestState; `sent` records the requestState of each request.
 */
function context(tools: string[], answer: (tool: string, state: unknown) => Answer) {
  const calls = {
    calls: tools.map((name, i) => ({
      tool: { label: name, tool: { name } },
      args: { n: i },
      exchange: exchange(i, {}, { result: inputRequired(`${name}-0`) }),
    })),
    notCalled: [],
  };
  const memos = new Map<string, Promise<unknown>>();
  const sent: { tool: string; state: unknown }[] = [];
  let id = 100;
  const ctx = {
    memo: (key: string, work: () => Promise<unknown>) => {
      if (key === 'valid-calls') return Promise.resolve(calls);
      if (!memos.has(key)) memos.set(key, work());
      return memos.get(key)!;
    },
    client: {
      request: async (_method: string, params: { name: string; requestState?: unknown }) => {
        sent.push({ tool: params.name, state: params.requestState });
        return exchange(++id, params, answer(params.name, params.requestState));
      },
    },
  } as unknown as CheckContext;
  return { ctx, sent };
}

/** A server that signs its state: the genuine one completes, anything else is -32602. */
const verifying = (tool: string, state: unknown): Answer =>
  state === undefined
    ? { result: inputRequired(`${tool}-genuine-state`) }
    : state === `${tool}-genuine-state`
      ? { result: COMPLETE }
      : { error: { code: -32602, message: 'Invalid requestState' } };

describe('tampering', () => {
  it('changes one character in the middle, within the base64url alphabet', () => {
    expect(flipOne('abcde')).toBe('abdde');
    expect(flipOne('a.9')).toBe('aA9');
    expect(flipOne('9')).toBe('A');
    expect(flipOne('x.y.z')).toBe('x.z.z');
  });

  it('makes flipped, truncated, empty and (given another state) foreign variants', () => {
    expect(variantsOf('abcdef', 'other')).toEqual([
      { variant: 'flipped', state: 'abceef' },
      { variant: 'truncated', state: 'abc' },
      { variant: 'empty', state: '' },
      { variant: 'foreign', state: 'other' },
    ]);
    expect(variantsOf('abcdef', 'abcdef').map((v) => v.variant)).toEqual(['flipped', 'truncated', 'empty']);
    expect(variantsOf('x', undefined).map((v) => v.variant)).toEqual(['flipped', 'empty']);
    expect(variantsOf('', 'other').map((v) => v.variant)).toEqual(['foreign']);
  });
});

describe('classify', () => {
  const of = (answer: Answer) => classify(exchange(1, {}, answer));

  it('calls an internal error, a 5xx, no answer or a gone target a crash', () => {
    // A server may report a state it refused as an internal error: only silence counts as breaking on the state.
    expect(of({ error: { code: -32603, message: 'Internal error' } })).toEqual({
      verdict: 'rejected',
      why: 'error -32603: Internal error',
    });
    expect(of({ status: 500 })).toEqual({ verdict: 'rejected', why: 'HTTP 500' });
    expect(of({ failure: { kind: 'timeout', message: 'no answer in 10 s' } }).verdict).toBe('crashed');
    expect(of({ failure: { kind: 'target-exited', message: 'exit 1' } }).verdict).toBe('crashed');
  });

  it('calls another error or an isError result a rejection, input_required asking again, a result acceptance', () => {
    expect(of({ error: { code: -32602, message: 'Invalid requestState' } })).toEqual({
      verdict: 'rejected',
      why: 'error -32602: Invalid requestState',
    });
    expect(of({ result: { ...COMPLETE, isError: true } }).verdict).toBe('rejected');
    expect(of({ result: inputRequired('s') }).verdict).toBe('asked-again');
    expect(of({ result: COMPLETE })).toEqual({ verdict: 'accepted', why: 'a complete result' });
    expect(of({ failure: { kind: 'malformed', message: 'not JSON' } }).verdict).toBe('unclear');
  });
});

describe('mrtr.requeststate.untrusted and .replay-binding', () => {
  it('pass a server that rejects every changed state, after 4 retries per tool (the foreign one from the other tool)', async () => {
    const { ctx, sent } = context(['a', 'b'], verifying);
    const untrusted = await requestStateUntrusted.run(ctx);
    const verified = await requestStateVerified.run(ctx);
    expect(untrusted.map((o) => [o.status, o.tool])).toEqual([
      ['pass', 'a'],
      ['pass', 'b'],
    ]);
    expect(verified.map((o) => [o.status, o.tool])).toEqual([
      ['pass', 'a'],
      ['pass', 'b'],
    ]);
    // 2 tools × (the call declaring capabilities + the genuine retry) + 2 × 4 tampered retries; the second check sends
    // nothing more
    expect(sent).toHaveLength(12);
    const tampered = sent
      .slice(4)
      .filter((s) => s.tool === 'a')
      .map((s) => s.state);
    expect(tampered).toEqual([flipOne('a-genuine-state'), 'a-genuine-state'.slice(0, 7), '', 'b-genuine-state']);
    expect(untrusted[0]!.message).toMatch(/^4 retries with a changed requestState, none left unanswered/);
  });

  it('fails untrusted (MUST) when a changed state gets no answer, and stops sending that tool variants', async () => {
    const { ctx, sent } = context(['a'], (tool, state) =>
      state === `${tool}-genuine-state` || state === undefined
        ? verifying(tool, state)
        : { failure: { kind: 'timeout', message: 'no answer within 2000 ms' } },
    );
    const [outcome] = await requestStateUntrusted.run(ctx);
    expect(outcome).toMatchObject({ status: 'fail', tool: 'a' });
    expect(outcome!.message).toMatch(/only in its requestState \(one character changed\) got no answer \(timeout/);
    expect(outcome!.expected).toMatch(/MUST treat requestState as attacker-controlled input/);
    expect(sent).toHaveLength(3);
    expect(toResult(requestStateUntrusted, outcome!, 0, '2026-07-28')).toMatchObject({
      status: 'fail',
      keyword: 'MUST',
    });
    const [verified] = await requestStateVerified.run(ctx);
    expect(verified).toMatchObject({ status: 'pass' });
  });

  it('reports a changed state carried to completion only as a warning that says the MUST is conditional', async () => {
    const { ctx } = context(['a'], (tool, state) =>
      state === undefined ? verifying(tool, state) : { result: COMPLETE },
    );
    const [untrusted] = await requestStateUntrusted.run(ctx);
    expect(untrusted).toMatchObject({ status: 'pass' });
    const [outcome] = await requestStateVerified.run(ctx);
    expect(outcome!.message).toMatch(
      /\(one character changed, cut to its first half, the empty string\) was carried to completion/,
    );
    expect(outcome!.message).toMatch(/cannot be seen from outside: "If requestState influences authorization/);
    const result = toResult(requestStateVerified, outcome!, 0, '2026-07-28');
    expect(result).toMatchObject({ status: 'warn', keyword: 'SHOULD', keywordText: 'SHOULD' });
  });

  it('counts input_required asking again as no acceptance', async () => {
    const { ctx } = context(['a'], (tool, state) =>
      state === `${tool}-genuine-state` ? { result: COMPLETE } : { result: inputRequired(`${tool}-genuine-state`) },
    );
    expect((await requestStateVerified.run(ctx))[0]).toMatchObject({ status: 'pass' });
    expect((await requestStateUntrusted.run(ctx))[0]).toMatchObject({ status: 'pass' });
  });

  it('skip, saying why, when no retry echoing a state got a result', async () => {
    const { ctx, sent } = context(['a'], (tool, state) =>
      state === undefined ? verifying(tool, state) : { error: { code: -32602, message: 'no' } },
    );
    expect(await requestStateUntrusted.run(ctx)).toEqual([
      { status: 'skip', message: 'no retry echoing a requestState got a result (a: error, error -32602)' },
    ]);
    expect(sent).toHaveLength(2);
  });

  it('skip when no tool answered input_required', async () => {
    const { ctx } = context([], verifying);
    expect(await requestStateVerified.run(ctx)).toEqual([
      { status: 'skip', message: 'no called tool answered input_required' },
    ]);
  });
});
