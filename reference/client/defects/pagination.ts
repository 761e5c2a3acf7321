import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/pagination.ts catch, each breaking one of them. */
export const PAGINATION_DEFECTS = {
  'cursor-trimmed': {
    check: 'page.client.opaque',
    description: 'the tools/list cursor sent back is trimmed of surrounding whitespace',
    at: { sentCursor: (cursor) => cursor.trim() },
  },
  'empty-cursor-ends': {
    check: 'page.client.empty-cursor',
    description: 'nextCursor: "" is taken as the end of the list',
    at: {
      listingRules: (rules) => {
        rules.emptyCursorIsCursor = false;
      },
    },
  },
  'first-page-only': {
    check: 'page.client.both-flows',
    description: 'lists only the first page of tools/list: a nextCursor is never followed',
    at: {
      listingRules: (rules) => {
        rules.followsNextCursor = false;
      },
    },
  },
} as const satisfies Record<string, Defect>;
