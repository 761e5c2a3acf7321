import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import type { Exchange } from '../../src/model/exchange.js';
import { elicitationModesDeclared, retryCompletes, urlModeRequests } from './mrtr.js';

const INPUT_REQUIRED = {
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
  requestState: 'state',
};

const exchange = (id: number, answer: { result?: unknown; error?: unknown }): Exchange => ({
  seq: id,
  sentAt: '2026-07-28T00:00:00.000Z',
  durationMs: 1,
  request: { jsonrpc: '2.0', id, method: 'tools/call', params: {} },
  response: { jsonrpc: '2.0', id, ...answer },
  notifications: [],
});

/**
 * A context whose one called tool answered input_required; the call declaring capabilities and the retries get
 * `answers` in turn.
 */
function context(answers: { result?: unknown; error?: unknown }[]): CheckContext {
  const first = exchange(1, { result: INPUT_REQUIRED });
  const calls = {
    calls: [{ tool: { label: 'confirm', tool: { name: 'confirm' } }, args: {}, exchange: first }],
    notCalled: [],
  };
  let id = 1;
  return {
    memo: (key: string, work: () => Promise<unknown>) => (key === 'valid-calls' ? Promise.resolve(calls) : work()),
    client: { request: async () => exchange(++id, answers.shift() ?? { result: INPUT_REQUIRED }) },
  } as unknown as CheckContext;
}

describe('mrtr.retry.completes', () => {
  it('passes, with a note, a server that asks again on every answered retry (servers MAY), keeping the ids as evidence', async () => {
    const [outcome] = await retryCompletes.run(context([]));
    expect(outcome).toMatchObject({ status: 'pass', tool: 'confirm' });
    expect(outcome!.message).toMatch(
      /still input_required after 3 rounds.*MAY return input_required on several attempts.*ids 2 → 3 → 4/,
    );
    expect(outcome!.evidence![0]).toEqual({
      note: 'request ids of the rounds (each retry is a new request): 2 → 3 → 4',
    });
  });

  it('passes a retry that completes', async () => {
    const [outcome] = await retryCompletes.run(
      context([{ result: INPUT_REQUIRED }, { result: { resultType: 'complete', content: [] } }]),
    );
    expect(outcome).toMatchObject({ status: 'pass', message: 'completed after 2 round(s); ids 2 → 3' });
  });

  it('only warns, labelled descriptive, when an answered retry gets a JSON-RPC error', async () => {
    const [outcome] = await retryCompletes.run(
      context([{ result: INPUT_REQUIRED }, { error: { code: -32603, message: 'Internal error' } }]),
    );
    expect(outcome).toMatchObject({ status: 'fail', message: 'the retry with inputResponses got error -32603' });
    const result = toResult(retryCompletes, outcome!, 0, '2026-07-28');
    expect(result).toMatchObject({
      status: 'warn',
      keyword: 'SHOULD',
      keywordText: 'descriptive',
      specRef: 'basic/patterns/mrtr#multi-round-trip-requests',
    });
  });
});

const URL_REQUIRED = {
  resultType: 'input_required',
  inputRequests: {
    confirm: {
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Open it', url: 'https://example.com/x' },
    },
  },
  requestState: 'state',
};

describe('elicit.server.modes', () => {
  it('finds URL-mode elicitation requests only', () => {
    expect(urlModeRequests(URL_REQUIRED)).toEqual(['confirm']);
    expect(urlModeRequests(INPUT_REQUIRED)).toEqual([]);
    expect(urlModeRequests({ resultType: 'complete', inputRequests: URL_REQUIRED.inputRequests })).toEqual([]);
    expect(
      urlModeRequests({
        resultType: 'input_required',
        inputRequests: { s: { method: 'sampling/createMessage', params: { mode: 'url' } } },
      }),
    ).toEqual([]);
  });

  it('passes form-mode requests to calls declaring {form: {}} and {}, and records the extra call declaring elicitation: {}', async () => {
    const requests: unknown[] = [];
    const ctx = context([
      { result: INPUT_REQUIRED },
      { result: { resultType: 'complete', content: [] } },
      { result: INPUT_REQUIRED },
    ]);
    const request = ctx.client.request.bind(ctx.client);
    (ctx.client as unknown as { request: unknown }).request = (method: string, params: unknown, options: unknown) => {
      requests.push(options);
      return request(method, params, options as never);
    };
    const [outcome] = await elicitationModesDeclared.run(ctx);
    expect(outcome).toMatchObject({ status: 'pass' });
    expect(outcome!.message).toMatch(
      /2 input_required result\(s\) to calls declaring elicitation: \{"form":\{\}\} and elicitation: \{\}/,
    );
    expect(requests.at(-1)).toMatchObject({ capabilities: { elicitation: {} } });
  });

  it('fails a URL-mode request to a call declaring form only, and one declaring elicitation: {}', async () => {
    const outcomes = await elicitationModesDeclared.run(
      context([
        { result: URL_REQUIRED },
        { result: { resultType: 'complete', content: [] } },
        { result: URL_REQUIRED },
      ]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fail', 'fail']);
    expect(outcomes[0]!.message).toBe(
      'a call declaring elicitation: {"form":{}} got URL-mode elicitation input request(s) confirm',
    );
    expect(outcomes[1]!.message).toMatch(/elicitation: \{\} \(an empty object means form mode only\)/);
    expect(outcomes[0]!.expected).toMatch(/did not declare elicitation.url/);
  });

  it('skips when no call declaring form mode was answered input_required', async () => {
    const outcomes = await elicitationModesDeclared.run(
      context([{ error: { code: -32021, message: 'needs url' } }, { error: { code: -32021, message: 'needs url' } }]),
    );
    expect(outcomes).toEqual([
      { status: 'skip', message: 'no call declaring form-mode elicitation was answered input_required' },
    ]);
  });
});
