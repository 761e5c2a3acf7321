import { type ClientCheckDefinition, evidenceOf } from '../kit/index.js';
import { clientCheck, fail, pass, sentence, skip } from './kit.js';

export const REFETCH_PAGE = clientCheck({
  id: 'cache.page.refetch-page',
  title: 'A later page whose ttlMs has run out is fetched again with its cursor',
  area: 'caching',
  scenario: 'cache',
  sentences: [
    sentence(
      'server/utilities/caching#interaction-with-pagination',
      'When a cached page expires, the client SHOULD re-fetch that page using its cursor.',
      'SHOULD',
    ),
  ],
  run(ctx) {
    if (ctx.observed.listings < 2)
      return [
        skip(
          'the driver did not list the tools a second time (the optional contract step that prints {"listed": ' +
            'n} after each listing)',
        ),
      ];
    const lists = ctx.requests.filter((r) => r.method === 'tools/list');
    const fresh = lists.find((r) => !('cursor' in r.params) && (ctx.resultOf(r)?.ttlMs ?? 0) !== 0);
    if (fresh)
      return [
        skip(
          `the listing was given ttlMs ${String(ctx.resultOf(fresh)!.ttlMs)} because a listen subscription was ` +
            `open: its pages were still fresh`,
        ),
      ];
    // The driver lists again after its calls: the pages fetched before them (its first listing) are due again then.
    const lastCall = ctx.requests.filter((r) => r.method === 'tools/call').at(-1);
    if (!lastCall) return [skip('the client called no tool, so its two listings cannot be told apart')];
    const again = lists.filter((r) => r.seen.seq > lastCall.seen.seq);
    if (!again.some((r) => !('cursor' in r.params)))
      return [
        skip(
          'no listing reached the server after the calls: a listing served whole from the cache is what ' +
            'cache.client.ttl-zero judges',
        ),
      ];
    const cursors = [
      ...new Set(
        lists
          .filter((r) => r.seen.seq < lastCall.seen.seq && typeof r.params.cursor === 'string')
          .map((r) => r.params.cursor as string),
      ),
    ];
    if (cursors.length === 0)
      return [skip('the client never fetched a page beyond the first (page.client.both-flows judges that)')];
    const cached = cursors.filter((cursor) => !again.some((r) => r.params.cursor === cursor));
    if (cached.length === 0)
      return [
        pass(
          `the listing after the calls fetched the first page and the ${cursors.length} later page(s) again ` +
            `with their cursors (all pages carry ttlMs 0)`,
        ),
      ];
    return [
      fail(
        `the listing after the calls fetched the first page again but not the ` +
          `${cached.length > 1 ? 'pages of the cursors' : 'page of the cursor'} ` +
          `${cached.map((c) => JSON.stringify(c)).join(', ')}: it served ${cached.length > 1 ? 'them' : 'it'} ` +
          `from its cache, although every page had ttlMs 0`,
        'each expired page fetched again with its cursor when the listing is needed again',
        again.slice(0, 2).map((r) => evidenceOf(r.seen)),
      ),
    ];
  },
});

export const PAGE_CACHE_CHECKS: readonly ClientCheckDefinition[] = [REFETCH_PAGE];
