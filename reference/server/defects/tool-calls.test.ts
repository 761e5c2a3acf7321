import { expect } from 'vitest';
import type { HandlerContext } from '../reply.js';
import { initializeRequest, legacyRpc, rpc } from '../test-support.js';
import { TOOL_CALLS_DEFECTS } from './tool-calls.js';
import { showsEachDeviation, exchange, discover, callResult, listed } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'structured-content-omitted': (ctx) => {
    exchange(ctx, initializeRequest(1, '2025-06-18'));
    const result = exchange(ctx, legacyRpc(2, 'tools/call', { name: 'add_numbers', arguments: { a: 1, b: 2 } })).at(
      -1,
    )!.result;
    expect(result).toEqual({ content: [{ type: 'text', text: '{"sum":3}' }] });
    expect(listed(ctx).find((tool) => tool.name === 'add_numbers')!.outputSchema).toBeDefined();
  },
  'unknown-tool-is-error': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'nope', arguments: {} })).at(-1)!.result.isError).toBe(true),
  'malformed-arguments-accepted': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'get_time', arguments: [] })).at(-1)!.result.resultType).toBe(
      'complete',
    ),
  'unknown-tool-32002': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'nope', arguments: {} })).at(-1)!.error.code).toBe(-32002),
  'unknown-tool-32050': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'nope', arguments: {} })).at(-1)!.error.code).toBe(-32050),
  'unknown-tool-32001': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'nope', arguments: {} })).at(-1)!.error.code).toBe(-32001),
  'valid-args-rejected': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).at(-1)!.error.code).toBe(
      -32602,
    ),
  'structured-output-mismatch': (ctx) =>
    expect(
      exchange(ctx, rpc(1, 'tools/call', { name: 'get_weather', arguments: { location: 'Oslo' } })).at(-1)!.result
        .structuredContent.humidity,
    ).toMatch(/%$/),
  'no-text-mirror': (ctx) =>
    expect(
      exchange(ctx, rpc(1, 'tools/call', { name: 'add_numbers', arguments: { a: 1, b: 2 } })).at(-1)!.result.content[0]
        .text,
    ).toBe('The sum is 3.'),
  'invalid-args-succeed': (ctx) => {
    const result = exchange(ctx, rpc(1, 'tools/call', { name: 'get_time', arguments: { extra: 1 } })).at(-1)!.result;
    expect(result.isError).toBeUndefined();
  },
  'coerces-any-type': (ctx) =>
    expect(exchange(ctx, rpc(1, 'tools/call', { name: 'echo', arguments: { text: [] } })).at(-1)!.result).toMatchObject(
      { content: [{ type: 'text', text: '' }] },
    ),
  'unknown-tool-32020': (ctx) => expect(callResult(ctx, 'no_such_tool', {}).error.code).toBe(-32020),
  'unknown-tool-32500': (ctx) => expect(callResult(ctx, 'no_such_tool', {}).error.code).toBe(-32500),
  'embedded-resource-undeclared': (ctx) => {
    expect(callResult(ctx, 'get_time', {}).result.content.at(-1)).toMatchObject({
      type: 'resource',
      resource: { uri: 'clock://utc' },
    });
    expect(discover(ctx).result.capabilities.resources).toBeUndefined();
  },
};

showsEachDeviation(TOOL_CALLS_DEFECTS, DEVIATIONS);
