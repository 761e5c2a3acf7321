import { expect } from 'vitest';
import { handleMessage } from '../handler.js';
import type { HandlerContext } from '../reply.js';
import { rpc, stdioContext } from '../test-support.js';
import { MRTR_DEFECTS } from './mrtr.js';
import { showsEachDeviation, exchange, ACCEPTED, confirmCall } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'irr-without-capability': (ctx) =>
    expect(
      exchange(ctx, rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } })).at(-1)!.result
        .resultType,
    ).toBe('input_required'),
  'missing-capability-no-data': (ctx) => {
    const error = exchange(ctx, rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } })).at(
      -1,
    )!.error;
    expect(error.code).toBe(-32021);
    expect(error.data).toBeUndefined();
  },
  'missing-capability-200': (ctx) => {
    const reply = handleMessage(rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } }), ctx);
    expect(reply).toMatchObject({ kind: 'send', status: 200 });
  },
  'retry-answer-rejected': (ctx) => {
    const caps = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const first = exchange(
      ctx,
      rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' }, _meta: caps }),
    ).at(-1)!.result;
    const retry = {
      name: 'confirm_action',
      arguments: { action: 'x' },
      _meta: caps,
      requestState: first.requestState,
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
    };
    expect(exchange(ctx, rpc(2, 'tools/call', retry)).at(-1)!.error.code).toBe(-32603);
  },
  'irr-empty': (ctx) => {
    const caps = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    expect(
      exchange(ctx, rpc(1, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' }, _meta: caps })).at(-1)!
        .result,
    ).toEqual(expect.objectContaining({ resultType: 'input_required' }));
  },
  'request-state-tamper-hang': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    const truncated = first.requestState.slice(0, Math.floor(first.requestState.length / 2));
    expect(
      handleMessage(rpc(2, 'tools/call', confirmCall({ requestState: truncated, inputResponses: ACCEPTED })), ctx).kind,
    ).toBe('hang');
    expect(
      handleMessage(
        rpc(2, 'tools/call', confirmCall({ requestState: truncated, inputResponses: ACCEPTED })),
        stdioContext(),
      ).kind,
    ).toBe('send');
    expect(
      exchange(
        ctx,
        rpc(3, 'tools/call', confirmCall({ requestState: first.requestState, inputResponses: ACCEPTED })),
      ).at(-1)!.result.resultType,
    ).toBe('complete');
  },
  'capabilities-remembered': (ctx) => {
    exchange(ctx, rpc(1, 'tools/call', confirmCall()));
    const without = exchange(ctx, rpc(2, 'tools/call', { name: 'confirm_action', arguments: { action: 'x' } })).at(-1)!;
    expect(without.result.resultType).toBe('input_required');
  },
  'request-state-per-connection': (ctx) => {
    const first = exchange({ ...ctx, connection: 'a' }, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    const retry = rpc(2, 'tools/call', confirmCall({ requestState: first.requestState, inputResponses: ACCEPTED }));
    expect(exchange({ ...ctx, connection: 'b' }, retry).at(-1)!.error.code).toBe(-32602);
    expect(exchange({ ...ctx, connection: 'a' }, retry).at(-1)!.result.resultType).toBe('complete');
  },
  'request-state-unverified': (ctx) => {
    const result = exchange(
      ctx,
      rpc(1, 'tools/call', confirmCall({ requestState: 'forged', inputResponses: ACCEPTED })),
    ).at(-1)!.result;
    expect(result.content[0].text).toMatch(/^Confirmed/);
  },
  'elicit-url-mode-undeclared': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    expect(first.inputRequests.confirm.params.mode).toBe('url');
  },
  're-request-error': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    expect(
      exchange(ctx, rpc(2, 'tools/call', confirmCall({ requestState: first.requestState }))).at(-1)!.error.code,
    ).toBe(-32602);
  },
  'extra-input-response-rejected': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    const retry = confirmCall({
      requestState: first.requestState,
      inputResponses: { ...ACCEPTED, other: { action: 'decline' } },
    });
    expect(exchange(ctx, rpc(2, 'tools/call', retry)).at(-1)!.error.code).toBe(-32602);
  },
  'input-responses-unvalidated': (ctx) => {
    const first = exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result;
    const retry = confirmCall({ requestState: first.requestState, inputResponses: 'not an object' });
    expect(exchange(ctx, rpc(2, 'tools/call', retry)).at(-1)!.result.resultType).toBe('input_required');
  },
};

showsEachDeviation(MRTR_DEFECTS, DEVIATIONS);
