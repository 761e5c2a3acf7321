import { CACHE_HINT_REQUIRED, CacheScope, TtlMs } from './cache-hints.js';
import { ResultMeta } from './implementation.js';
import { CompleteResultType } from './result-type.js';
import { ServerCapabilities } from './server-capabilities.js';

export const DiscoverResult = {
  type: 'object',
  required: ['resultType', 'supportedVersions', 'capabilities', ...CACHE_HINT_REQUIRED],
  properties: {
    resultType: CompleteResultType,
    supportedVersions: { type: 'array', minItems: 1, items: { type: 'string' } },
    capabilities: ServerCapabilities,
    instructions: { type: 'string' },
    ttlMs: TtlMs,
    cacheScope: CacheScope,
    _meta: ResultMeta,
  },
} as const;
