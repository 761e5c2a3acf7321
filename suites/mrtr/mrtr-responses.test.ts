import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import type { Exchange } from '../../src/model/exchange.js';
import {
  answerKind,
  ignoreExtraResponses,
  reRequestMissing,
  UNREQUESTED_KEY,
  validateInputResponses,
} from './mrtr-responses.js';

type Answer = { result?: unknown; error?: unknown };
type Params = { name: string; requestState?: string; inputResponses?: unknown };

let stateCounter = 0;
const inputRequired = () => ({
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
  requestState: `state-${++stateCounter}`,
});
const COMPLETE = { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };
const INVALID = { error: { code: -32602, message: 'Invalid params' } };

const exchange = (id: number, params: unknown, answer: Answer): Exchange => ({
  seq: id,
  sentAt: '2026-07-28T00:00:00.000Z',
  durationMs: 1,
  request: { jsonrpc: '2.0', id, method: 'tools/call', params },
  response: { jsonrpc: '2.0', id, ...(answer.error ? { error: answer.error } : { result: answer.result }) },
  notifications: [],
});

/**
 * A server that asks once, completes a retry answering `confirm`, and answers other retries as `deviate` says (or like
 * a good server).
 */
function context(deviate: (params: Params) => Answer | undefined = () => undefined) {
  const calls = {
    calls: [
      { tool: { label: 'a', tool: { name: 'a' } }, args: {}, exchange: exchange(0, {}, { result: inputRequired() }) },
    ],
    notCalled: [],
  };
  const memos = new Map<string, Promise<unknown>>();
  const sent: Params[] = [];
  let id = 100;
  const ctx = {
    memo: (key: string, work: () => Promise<unknown>) => {
      if (key === 'valid-calls') return Promise.resolve(calls);
      if (!memos.has(key)) memos.set(key, work());
      return memos.get(key)!;
    },
    client: {
      request: async (_method: string, params: Params) => {
        sent.push(params);
        const own = deviate(params);
        const answer: Answer =
          own ??
          (params.requestState === undefined
            ? { result: inputRequired() }
            : typeof params.inputResponses === 'string'
              ? INVALID
              : params.inputResponses === undefined
                ? { result: inputRequired() }
                : { result: COMPLETE });
        return exchange(++id, params, answer);
      },
    },
  } as unknown as CheckContext;
  return { ctx, sent };
}

const runAll = async (ctx: CheckContext) => ({
  reRequest: (await reRequestMissing.run(ctx))[0]!,
  extra: (await ignoreExtraResponses.run(ctx))[0]!,
  malformed: (await validateInputResponses.run(ctx))[0]!,
});

describe('answerKind', () => {
  it('tells an error, a tool error, input_required and a result apart', () => {
    expect(answerKind(exchange(1, {}, INVALID))).toEqual({ kind: 'error', why: 'error -32602: Invalid params' });
    expect(answerKind(exchange(1, {}, { result: { ...COMPLETE, isError: true } })).kind).toBe('tool-error');
    expect(answerKind(exchange(1, {}, { result: inputRequired() })).kind).toBe('input-required');
    expect(answerKind(exchange(1, {}, { result: COMPLETE }))).toEqual({ kind: 'result', why: 'a complete result' });
  });
});

describe('mrtr.server.re-request, .ignore-extra and .validate-inputresponses', () => {
  it('pass a server that asks again, ignores an extra key and rejects a string, in 3 requests after the conversation and the {} call', async () => {
    const { ctx, sent } = context();
    const { reRequest, extra, malformed } = await runAll(ctx);
    expect([reRequest.status, extra.status, malformed.status]).toEqual(['pass', 'pass', 'pass']);
    // conversation (2) + the call declaring elicitation: {} (1) + missing, extra, malformed (3)
    expect(sent).toHaveLength(6);
    const [missing, withExtra, broken] = sent.slice(3);
    expect(missing).not.toHaveProperty('inputResponses');
    expect(missing!.requestState).toBe(`state-${stateCounter - 1}`);
    expect(Object.keys(withExtra!.inputResponses as object)).toEqual(['confirm', UNREQUESTED_KEY]);
    expect(withExtra!.requestState).toBe(`state-${stateCounter}`);
    expect(broken!.inputResponses).toBe('not an InputResponses object');
  });

  it('warn (SHOULD) when the retry without inputResponses gets an error, and then send no extra-key retry', async () => {
    const { ctx, sent } = context((p) =>
      p.requestState !== undefined && p.inputResponses === undefined ? INVALID : undefined,
    );
    const { reRequest, extra } = await runAll(ctx);
    expect(reRequest).toMatchObject({
      status: 'fail',
      message:
        'the retry that echoed requestState without answering the input requests got error -32602: Invalid params',
    });
    expect(toResult(reRequestMissing, reRequest, 0, '2026-07-28')).toMatchObject({ status: 'warn', keyword: 'SHOULD' });
    expect(extra.status).toBe('skip');
    expect(sent.some((p) => isExtra(p))).toBe(false);
  });

  it('warn when the extra key turns a completing retry into an error, and skip when the retry without it failed too', async () => {
    const rejectsExtra = (p: Params) => (isExtra(p) ? INVALID : undefined);
    expect((await runAll(context(rejectsExtra).ctx)).extra).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/where the retry without it got a complete result$/),
    });
    const rejectsAllAnswers = (p: Params) => (typeof p.inputResponses === 'object' ? INVALID : undefined);
    expect((await runAll(context(rejectsAllAnswers).ctx)).extra).toMatchObject({ status: 'skip' });
  });

  it('warn when inputResponses that is a string gets a result', async () => {
    const { malformed } = await runAll(
      context((p) => (typeof p.inputResponses === 'string' ? { result: inputRequired() } : undefined)).ctx,
    );
    expect(malformed).toMatchObject({
      status: 'fail',
      message: 'inputResponses that is a string, not an InputResponses object, got input_required again',
    });
  });
});

const isExtra = (p: Params) =>
  typeof p.inputResponses === 'object' && p.inputResponses !== null && UNREQUESTED_KEY in p.inputResponses;
