/** `CacheableResult` members, required on complete `tools/list` and `server/discover` results. */

export const TtlMs = { type: 'integer', minimum: 0 } as const;

export const CacheScope = { type: 'string', enum: ['public', 'private'] } as const;

export const CACHE_HINT_REQUIRED = ['ttlMs', 'cacheScope'] as const;
