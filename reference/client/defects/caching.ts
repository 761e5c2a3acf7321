import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/caching.ts catch, each breaking one of them. */
export const CACHING_DEFECTS = {
  'caches-stale-listing': {
    check: 'cache.client.ttl-zero',
    description:
      'keeps its first listing for the whole run: opens no listen stream, and serves the second listing from ' +
      'its cache although every page had ttlMs 0',
    at: {
      sessionRules: (rules) => {
        rules.watchesToolChanges = false;
        rules.listingExpires = false;
      },
    },
  },
  'ignores-list-changed': {
    check: 'cache.notif.invalidates',
    description: 'notifications/tools/list_changed on its listen stream does not make its fresh listing stale',
    at: {
      sessionRules: (rules) => {
        rules.listChangedMakesStale = false;
      },
    },
  },
} as const satisfies Record<string, Defect>;
