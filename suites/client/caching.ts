import { type ClientCheckContext, type ClientCheckDefinition, evidenceOf, LISTEN_TTL_MS } from '../kit/index.js';
import { clientCheck, fail, pass, sentence, skip } from './kit.js';

const NO_SECOND_LISTING =
  'the driver did not list the tools a second time (the optional contract step that prints {"listed": n} after ' +
  'each listing)';
/** The first page of every listing: a tools/list without a cursor. */
const firstPages = (ctx: ClientCheckContext) =>
  ctx.requests.filter((r) => r.method === 'tools/list' && !('cursor' in r.params));

export const TTL_ZERO_REFETCH = clientCheck({
  id: 'cache.client.ttl-zero',
  covers: ['cache.client.refetch-stale'],
  title: 'A listing with ttlMs 0 is fetched again when it is needed again',
  area: 'caching',
  scenario: 'cache',
  sentences: [
    sentence(
      'server/utilities/caching#time-to-live-ttl-field',
      'If ttlMs is 0, the response SHOULD be considered immediately stale.',
      'SHOULD',
    ),
    sentence(
      'server/utilities/caching#freshness-calculation',
      'Once the TTL expires, the response is stale and the client SHOULD re-fetch on next access.',
      'SHOULD',
    ),
  ],
  run(ctx) {
    const listings = ctx.observed.listings;
    if (listings < 2) return [skip(NO_SECOND_LISTING)];
    // A walk starts with a tools/list without a cursor; its pages carry ttlMs 0 unless a listen subscription was open.
    const walks = firstPages(ctx);
    const fresh = walks.find((r) => (ctx.resultOf(r)?.ttlMs ?? 0) !== 0);
    if (fresh)
      return [
        skip(
          `the listing was given ttlMs ${String(ctx.resultOf(fresh)!.ttlMs)} because a listen subscription was ` +
            `open: cache.notif.invalidates judges it`,
        ),
      ];
    // The driver lists again after its calls; walks during the calls (a recovery from HeaderMismatch) do not count for
    // it.
    const lastCall = ctx.requests.filter((r) => r.method === 'tools/call').at(-1);
    const relisted = lastCall ? walks.some((w) => w.seen.seq > lastCall.seen.seq) : walks.length >= listings;
    if (relisted)
      return [
        pass(
          `the driver listed the tools ${listings} times and each listing reached the server (${walks.length} ` +
            `first-page requests): a listing with ttlMs 0 was never served from a cache`,
        ),
      ];
    return [
      fail(
        `the driver listed the tools ${listings} times, but no listing reached the server after the calls (` +
          `${walks.length} first-page request(s) in all): a listing whose pages all carry ttlMs 0 (immediately ` +
          `stale) was served from a cache`,
        'a new tools/list walk each time the listing is needed: ttlMs 0 means stale at once',
        walks.slice(0, 3).map((r) => evidenceOf(r.seen)),
      ),
    ];
  },
});

export const NOTIFICATION_INVALIDATES = clientCheck({
  id: 'cache.notif.invalidates',
  title: 'notifications/tools/list_changed makes a fresh listing stale',
  area: 'caching',
  scenario: 'listen',
  sentences: [
    sentence(
      'server/utilities/caching#interaction-with-notifications',
      'When a relevant notification is received while a cached response is still fresh, the notification ' +
        'invalidates the cached response and it should be considered immediately stale.',
      'descriptive',
    ),
  ],
  run(ctx) {
    const listens = ctx.requests.filter((r) => r.method === 'subscriptions/listen');
    if (listens.length === 0)
      return [
        skip(
          'the client opened no subscriptions/listen stream (the SDK v2 client opens one when it is given ' +
            'listChanged handlers)',
        ),
      ];
    const notified = ctx.observed.sentNotifications.find(
      (n) => n.message.method === 'notifications/tools/list_changed',
    );
    if (!notified)
      return [
        skip(
          'no notifications/tools/list_changed was sent: no subscription asking for toolsListChanged was open ' +
            'when the first listing ended',
        ),
      ];
    if (ctx.observed.listings < 2) return [skip(NO_SECOND_LISTING)];
    const after = firstPages(ctx).filter((r) => r.seen.t > notified.t);
    const evidence = [...listens.slice(0, 1), ...after.slice(0, 1)].map((r) => evidenceOf(r.seen));
    if (after.length > 0)
      return [
        pass(
          `after notifications/tools/list_changed (${Math.round(notified.t)} ms into the audit) the client ` +
            `listed the tools again (${after.length} walk(s)), although the listing it had was fresh for an hour`,
          evidence,
        ),
      ];
    return [
      fail(
        `notifications/tools/list_changed arrived while the listing was fresh (ttlMs ${LISTEN_TTL_MS}), and ` +
          `the driver's second listing was served without asking the server again`,
        'a new tools/list walk: the notification makes the cached listing stale (descriptive text: a deviation warns)',
        evidence,
      ),
    ];
  },
});

export const CACHING_CHECKS: readonly ClientCheckDefinition[] = [TTL_ZERO_REFETCH, NOTIFICATION_INVALIDATES];
