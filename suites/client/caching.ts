import type { ClientCheckDefinition } from '../../src/runner/client-check.js';
import { evidenceOf } from '../../src/runner/client-check.js';
import { clientCheck, fail, pass, sentence, skip } from './kit.js';

export const TTL_ZERO_REFETCH = clientCheck({
  id: 'cache.client.ttl-zero',
  covers: ['cache.client.refetch-stale'],
  title: 'A listing with ttlMs 0 is fetched again when it is needed again',
  area: 'caching',
  scenario: 'cache',
  sentences: [
    sentence('server/utilities/caching#time-to-live-ttl-field', 'If ttlMs is 0, the response SHOULD be considered immediately stale.', 'SHOULD'),
    sentence('server/utilities/caching#freshness-calculation', 'Once the TTL expires, the response is stale and the client SHOULD re-fetch on next access.', 'SHOULD'),
  ],
  run(ctx) {
    const listings = ctx.observed.listings;
    if (listings < 2) return [skip('the driver did not list the tools a second time (the optional contract step that prints {"listed": n} after each listing)')];
    // A walk starts with a tools/list without a cursor; every page the scripted server sends carries ttlMs 0.
    const walks = ctx.requests.filter((r) => r.method === 'tools/list' && !('cursor' in r.params));
    if (walks.length >= listings) return [pass(`the driver listed the tools ${listings} times and each listing reached the server (${walks.length} first-page requests): a listing with ttlMs 0 was never served from a cache`)];
    return [
      fail(
        `the driver listed the tools ${listings} times, but only ${walks.length} listing(s) reached the server: a listing whose pages all carry ttlMs 0 (immediately stale) was served from a cache`,
        'a new tools/list walk each time the listing is needed: ttlMs 0 means stale at once',
        walks.slice(0, 3).map((r) => evidenceOf(r.seen)),
      ),
    ];
  },
});

export const CACHING_CHECKS: readonly ClientCheckDefinition[] = [TTL_ZERO_REFETCH];
