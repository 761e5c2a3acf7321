import { describe, expect, it } from 'vitest';
import { validateWire } from '../schema/validator.js';
import { attribute, CATCH_ALL_CHECK } from './attribution.js';

const discover = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: false } },
  ttlMs: 1000,
  cacheScope: 'public',
};
const checksFor = (method: string, schema: 'DiscoverResult' | 'ListToolsResult', value: unknown) => [
  ...new Set(validateWire(schema, '2026-07-28', value).map((i) => attribute(method, i))),
];

describe('each schema issue goes to exactly one check', () => {
  it('the clean discover result has no issues', () => {
    expect(checksFor('server/discover', 'DiscoverResult', discover)).toEqual([]);
  });
  it.each([
    [{ ...discover, resultType: undefined }, 'base.res.resulttype'],
    [{ ...discover, resultType: 'ok' }, 'base.resulttype.set'],
    [{ ...discover, ttlMs: undefined }, 'cache.server.hints'],
    [{ ...discover, cacheScope: 'shared' }, 'cache.server.hints'],
    [{ ...discover, ttlMs: -1 }, 'cache.server.ttl-nonneg'],
    [{ ...discover, ttlMs: 1.5 }, 'cache.server.ttl-nonneg'],
    [{ ...discover, supportedVersions: [] }, 'discover.supported-versions'],
    [{ ...discover, supportedVersions: undefined }, CATCH_ALL_CHECK],
    [{ ...discover, supportedVersions: [2026] }, CATCH_ALL_CHECK],
    [{ ...discover, capabilities: { tools: { listChanged: 'yes' } } }, 'tools.cap.list-changed-type'],
    [{ ...discover, instructions: 42 }, CATCH_ALL_CHECK],
  ])('discover variant → %s', (value, check) => {
    expect(checksFor('server/discover', 'DiscoverResult', JSON.parse(JSON.stringify(value)))).toEqual([check]);
  });
  it.each([
    [{ resultType: 'complete', tools: {}, ttlMs: 0, cacheScope: 'public' }, 'tools.list.respond'],
    [{ resultType: 'complete', ttlMs: 0, cacheScope: 'public' }, 'tools.list.respond'],
    [{ resultType: 'complete', tools: [], nextCursor: 5, ttlMs: 0, cacheScope: 'public' }, 'tools.list.respond'],
    [
      { resultType: 'complete', tools: [{ name: 'x' }], ttlMs: 0, cacheScope: 'public' },
      'tools.schema.input-valid-object',
    ],
    [
      {
        resultType: 'complete',
        tools: [{ name: 'x', inputSchema: { type: 'string' } }],
        ttlMs: 0,
        cacheScope: 'public',
      },
      'tools.schema.input-valid-object',
    ],
    [
      { resultType: 'complete', tools: [{ name: 5, inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'public' },
      'tools.tool.shape',
    ],
    [
      {
        resultType: 'complete',
        tools: [{ name: 'x', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 1 } }],
        ttlMs: 0,
        cacheScope: 'public',
      },
      'tools.annotations.types',
    ],
    [
      {
        resultType: 'complete',
        tools: [{ name: 'x', inputSchema: { type: 'object' }, icons: [{ src: 'https://x/i.png', theme: 'neon' }] }],
        ttlMs: 0,
        cacheScope: 'public',
      },
      'icons.shape',
    ],
    [{ resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public', extra: 1, _meta: 5 }, CATCH_ALL_CHECK],
  ])('tools/list variant → %s', (value, check) => {
    expect(checksFor('tools/list', 'ListToolsResult', value)).toEqual([check]);
  });
});
