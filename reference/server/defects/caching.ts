import { defineDefects } from './define.js';

/** Defects that the checks of suites/caching/ catch, each breaking one of them. */
export const CACHING_DEFECTS = defineDefects([
  {
    name: 'no-cache-hints',
    breaks: 'cache.server.hints',
    description: 'the last tools/list page has neither ttlMs nor cacheScope',
    at: {
      toolsListResult: (result, page) => {
        if (!page.isLast) return;
        delete result.ttlMs;
        delete result.cacheScope;
      },
    },
  },
  {
    name: 'negative-ttl',
    breaks: 'cache.server.ttl-nonneg',
    description: 'the discover result has ttlMs -1',
    at: {
      discoverResult: (result) => {
        result.ttlMs = -1;
      },
    },
  },
  {
    name: 'mixed-cache-scope',
    breaks: 'cache.server.scope-consistent',
    description: 'tools/list page 1 is public, later pages are private',
    at: {
      toolsListResult: (result, page) => {
        if (page.index > 0 && result.cacheScope !== undefined) result.cacheScope = 'private';
      },
    },
  },
  {
    name: 'interim-result-cache-hints',
    breaks: 'cache.irr-no-hints',
    description: 'confirm_action\'s input_required result carries ttlMs 60000 and cacheScope "private"',
    transports: ['stdio'],
    at: {
      inputRequiredResult: (result) => {
        result.ttlMs = 60_000;
        result.cacheScope = 'private';
      },
    },
  },
]);
