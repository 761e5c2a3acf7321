import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/page-cache.ts catch, each breaking one of them. */
export const PAGE_CACHE_DEFECTS = {
  'caches-later-pages': {
    check: 'cache.page.refetch-page',
    description:
      'opens no listen stream, and keeps the pages after the first from the first listing: the second listing ' +
      'fetches only the first page again, although every page had ttlMs 0',
  },
} as const satisfies Record<string, Defect>;
