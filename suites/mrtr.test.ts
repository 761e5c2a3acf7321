import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../src/runner/context.js';
import { toResult } from '../src/runner/runner.js';
import type { Exchange } from '../src/transport/types.js';
import { retryCompletes } from './mrtr.js';

const INPUT_REQUIRED = {
  resultType: 'input_required',
  inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } },
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

/** A context whose one called tool answered input_required; the call declaring capabilities and the retries get `answers` in turn. */
function context(answers: { result?: unknown; error?: unknown }[]): CheckContext {
  const first = exchange(1, { result: INPUT_REQUIRED });
  const calls = { calls: [{ tool: { label: 'confirm', tool: { name: 'confirm' } }, args: {}, exchange: first }], notCalled: [] };
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
    expect(outcome!.message).toMatch(/still input_required after 3 rounds.*MAY return input_required on several attempts.*ids 2 → 3 → 4/);
    expect(outcome!.evidence![0]).toEqual({ note: 'request ids of the rounds (each retry is a new request): 2 → 3 → 4' });
  });

  it('passes a retry that completes', async () => {
    const [outcome] = await retryCompletes.run(context([{ result: INPUT_REQUIRED }, { result: { resultType: 'complete', content: [] } }]));
    expect(outcome).toMatchObject({ status: 'pass', message: 'completed after 2 round(s); ids 2 → 3' });
  });

  it('only warns, labelled descriptive, when an answered retry gets a JSON-RPC error', async () => {
    const [outcome] = await retryCompletes.run(context([{ result: INPUT_REQUIRED }, { error: { code: -32603, message: 'Internal error' } }]));
    expect(outcome).toMatchObject({ status: 'fail', message: 'the retry with inputResponses got error -32603' });
    const result = toResult(retryCompletes, outcome!, 0, '2026-07-28');
    expect(result).toMatchObject({ status: 'warn', keyword: 'SHOULD', keywordText: 'descriptive', specRef: 'basic/patterns/mrtr#multi-round-trip-requests' });
  });
});
