import { expect } from 'vitest';
import type { HandlerContext } from '../reply.js';
import { initializeRequest, legacyRpc } from '../test-support.js';
import { RESULTS_DEFECTS } from './results.js';
import { showsEachDeviation, Message, exchange, discover, pages, callResult, SERVER_INFO_KEY } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'supported-versions-missing': (ctx) => {
    expect(discover(ctx).result).not.toHaveProperty('supportedVersions');
    expect(discover(ctx).result.resultType).toBe('complete');
  },
  'no-server-info-on-list': (ctx) => {
    for (const page of pages(ctx)) expect(page.result).not.toHaveProperty('_meta');
    expect(discover(ctx).result._meta[SERVER_INFO_KEY]).toBeDefined();
  },
  'no-result-type': (ctx) => {
    const [first, second, third] = pages(ctx);
    expect(first!.result.resultType).toBe('complete');
    expect(second!.result).not.toHaveProperty('resultType');
    expect(third!.result.resultType).toBe('complete');
  },
  'unknown-result-type': (ctx) => expect(discover(ctx).result.resultType).toBe('ok'),
  'audio-content-on-2024-11-05': (ctx) => {
    exchange(ctx, initializeRequest(1, '2024-11-05'));
    const result = exchange(ctx, legacyRpc(2, 'tools/call', { name: 'get_logo', arguments: {} })).at(-1)!.result;
    expect(result.content.map((block: Message) => block.type)).toEqual(['image', 'text', 'audio']);
    expect(Buffer.from(result.content[2].data, 'base64').subarray(0, 4).toString()).toBe('RIFF');
  },
  'bad-instructions': (ctx) => expect(discover(ctx).result.instructions).toBe(42),
  'task-result-unnegotiated': (ctx) => {
    expect(discover(ctx).result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(callResult(ctx, 'get_time', {}).result.resultType).toBe('task');
  },
};

showsEachDeviation(RESULTS_DEFECTS, DEVIATIONS);
