import { evidenceOf, type ClientCheckDefinition } from '../../src/runner/client-check.js';
import { clientCheck, fail, pass, sentence, skip } from './kit.js';

export const REFETCH_PAGE = clientCheck({
  id: 'cache.page.refetch-page',
  title: 'A later page whose ttlMs has run out is fetched again with its cursor',
  area: 'caching',
  scenario: 'cache',
  sentences: [sentence('server/utilities/caching#interaction-with-pagination', 'When a cached page expires, the client SHOULD re-fetch that page using its cursor.', 'SHOULD')],
  run(ctx) {
    const lists = ctx.requests.filter((r) => r.method === 'tools/list');
    const walks = lists.filter((r) => !('cursor' in r.params));
    if (ctx.observed.listings < 2) return [skip('the driver did not list the tools a second time (the optional contract step that prints {"listed": n} after each listing)')];
    const fresh = walks.find((r) => (ctx.resultOf(r)?.ttlMs ?? 0) !== 0);
    if (fresh) return [skip(`the listing was given ttlMs ${String(ctx.resultOf(fresh)!.ttlMs)} because a listen subscription was open: its pages were still fresh`)];
    if (walks.length < ctx.observed.listings) return [skip(`only ${walks.length} of ${ctx.observed.listings} listings reached the server: a listing served whole from the cache is what cache.client.ttl-zero judges`)];
    const byCursor = new Map<string, typeof lists>();
    for (const r of lists) if (typeof r.params.cursor === 'string') byCursor.set(r.params.cursor, [...(byCursor.get(r.params.cursor) ?? []), r]);
    if (byCursor.size === 0) return [skip('the client never fetched a page beyond the first (page.client.both-flows judges that)')];
    const cached = [...byCursor].filter(([, requests]) => requests.length < walks.length);
    if (cached.length === 0) return [pass(`each of ${walks.length} walks fetched the later pages again with their cursors (all pages carry ttlMs 0)`)];
    const [cursor, requests] = cached[0]!;
    return [
      fail(
        `the client walked the list ${walks.length} times from the first page, but fetched the page of cursor ${JSON.stringify(cursor)} only ${requests.length} time(s): it served that page, whose ttlMs was 0, from its cache`,
        'each expired page fetched again with its cursor when the listing is needed again',
        [...walks.slice(-1), ...requests.slice(0, 1)].map((r) => evidenceOf(r.seen)),
      ),
    ];
  },
});

export const PAGE_CACHE_CHECKS: readonly ClientCheckDefinition[] = [REFETCH_PAGE];
