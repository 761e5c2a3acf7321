import { expect } from 'vitest';
import type { HandlerContext } from '../reply.js';
import { rpc } from '../test-support.js';
import { CACHING_DEFECTS } from './caching.js';
import { showsEachDeviation, exchange, discover, pages, confirmCall } from './test-support.js';

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<string, (ctx: HandlerContext) => void> = {
  'no-cache-hints': (ctx) => {
    const all = pages(ctx);
    expect(all[0]!.result).toMatchObject({ ttlMs: 60000, cacheScope: 'public' });
    expect(all[2]!.result).not.toHaveProperty('ttlMs');
    expect(all[2]!.result).not.toHaveProperty('cacheScope');
  },
  'negative-ttl': (ctx) => expect(discover(ctx).result.ttlMs).toBe(-1),
  'mixed-cache-scope': (ctx) =>
    expect(pages(ctx).map((page) => page.result.cacheScope)).toEqual(['public', 'private', 'private']),
  'interim-result-cache-hints': (ctx) => {
    expect(exchange(ctx, rpc(1, 'tools/call', confirmCall())).at(-1)!.result).toMatchObject({
      resultType: 'input_required',
      ttlMs: 60000,
      cacheScope: 'private',
    });
  },
};

showsEachDeviation(CACHING_DEFECTS, DEVIATIONS);
