import { expect } from 'vitest';
import type { HandlerContext } from '../reply.js';
import { rpc } from '../test-support.js';
import { CONFORMING_DEFECTS } from './conforming.js';
import { showsEachDeviation, Message, callResult, overHttp, searchInRegion, listed } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'tool-lookup-before-headers': (ctx) => {
    const unknown = rpc(1, 'tools/call', { name: 'nope', arguments: {} }) as Message;
    expect(overHttp(ctx, unknown, { 'mcp-name': undefined }).response.error).toMatchObject({ code: -32602 });
    expect(
      overHttp(ctx, searchInRegion(2), { 'mcp-name': undefined, 'mcp-param-region': 'us-west1' }).response.error,
    ).toMatchObject({ code: -32020 });
  },
  'no-read-only-hints': (ctx) => {
    const tools = listed(ctx);
    expect(tools.length).toBeGreaterThan(3);
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint !== undefined)).toEqual([]);
  },
  'region-pattern': (ctx) => {
    const region = listed(ctx).find((tool) => tool.name === 'search_docs')!.inputSchema.properties.region;
    expect(region).toMatchObject({ pattern: '^[a-z]{2}-[a-z]+-[0-9]$', 'x-mcp-header': 'Region' });
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-param-region': 'us-west1' })).toMatchObject({
      status: 400,
      response: { error: { code: -32602 } },
    });
    expect(callResult(ctx, 'search_docs', { query: 'q', region: 'eu-central-1' }).result.isError).toBeUndefined();
  },
  'region-refused': (ctx) => {
    expect(overHttp(ctx, searchInRegion(1), { 'mcp-param-region': 'us-west1' })).toMatchObject({
      status: 400,
      response: { error: { code: -32602 } },
    });
    expect(callResult(ctx, 'search_docs', { query: 'q', region: 'eu-central-1' }).result.isError).toBeUndefined();
  },
};

showsEachDeviation(CONFORMING_DEFECTS, DEVIATIONS);
