import type { Defect } from './define.js';
import type { Answered } from './seams/session.js';

/** The pages after the first, by the cursor that asked for them: once fetched, served again from here. */
const laterPages = new Map<string, Answered>();

/** Defects that the client checks of suites/client/page-cache.ts catch, each breaking one of them. */
export const PAGE_CACHE_DEFECTS = {
  'caches-later-pages': {
    check: 'cache.page.refetch-page',
    description:
      'opens no listen stream, and keeps the pages after the first from the first listing: the second listing ' +
      'fetches only the first page again, although every page had ttlMs 0',
    at: {
      sessionRules: (rules) => {
        rules.watchesToolChanges = false;
      },
      laterPage: async (cursor, request) => {
        const page = laterPages.get(cursor) ?? (await request());
        laterPages.set(cursor, page);
        return page;
      },
    },
  },
} as const satisfies Record<string, Defect>;
