import { type ClientCheckDefinition, evidenceOf, INITIALIZE_REVISIONS, type SeenRequest } from '../kit/index.js';
import { clientCheck, describeRequest, fail, judgeRequests, pass, sentence, skip } from './kit.js';
import { onRevisions } from '../kit/same-sentences.js';

const GUIDELINES = 'server/utilities/pagination#implementation-guidelines';

export const CURSOR_OPAQUE = clientCheck({
  id: 'page.client.opaque',
  title: 'Cursors go back exactly as the server issued them',
  area: 'tools-list',
  scenario: 'pagination',
  sentences: [sentence(GUIDELINES, 'Clients MUST treat cursors as opaque tokens:', 'MUST')],
  earlier: onRevisions(
    INITIALIZE_REVISIONS,
    sentence(GUIDELINES, 'Clients MUST treat cursors as opaque tokens:', 'MUST'),
  ),
  run(ctx) {
    const issued = new Set<string>();
    const withCursor: { request: (typeof ctx.requests)[number]; problem: string }[] = [];
    let judged = 0;
    for (const request of ctx.requests) {
      if (request.method !== 'tools/list') continue;
      if ('cursor' in request.params) {
        judged += 1;
        const cursor = request.params.cursor;
        if (typeof cursor !== 'string' || !issued.has(cursor))
          withCursor.push({
            request,
            problem: `${describeRequest(request)} sent cursor ${JSON.stringify(cursor)}, which the server never issued`,
          });
      }
      const next = ctx.resultOf(request)?.nextCursor;
      if (typeof next === 'string') issued.add(next);
    }
    return judgeRequests(
      judged,
      'the client sent no tools/list with a cursor',
      withCursor,
      `all ${judged} cursors went back byte for byte`,
      `a cursor exactly as issued (issued: ${[...issued].map((c) => JSON.stringify(c)).join(', ')})`,
    );
  },
});

export const EMPTY_CURSOR = clientCheck({
  id: 'page.client.empty-cursor',
  title: 'nextCursor "" is followed, not taken as the end',
  area: 'tools-list',
  scenario: 'pagination',
  sentences: [
    sentence(
      GUIDELINES,
      'an empty string is a valid cursor and thus MUST NOT be treated as the end of results',
      'MUST NOT',
    ),
  ],
  run(ctx) {
    const lists = ctx.requests.filter((r) => r.method === 'tools/list');
    const emptyAt = lists.find((r) => ctx.resultOf(r)?.nextCursor === '');
    if (!emptyAt) return [skip('no tools/list page ended with nextCursor ""')];
    const followed = lists.find((r) => r.seen.seq > emptyAt.seen.seq && r.params.cursor === '');
    if (followed)
      return [
        pass(`after nextCursor "" the client asked for the next page with cursor "" (${describeRequest(followed)})`, [
          evidenceOf(followed.seen),
        ]),
      ];
    return [
      fail(
        `the page of ${describeRequest(emptyAt)} had nextCursor "", and the client asked for no page with cursor ""`,
        'a tools/list request with cursor "" (an empty cursor is not the end)',
        [evidenceOf(emptyAt.seen)],
      ),
    ];
  },
});

export const BOTH_FLOWS = clientCheck({
  id: 'page.client.both-flows',
  title: 'A listing goes on past a page with a nextCursor',
  area: 'tools-list',
  scenario: 'pagination',
  sentences: [sentence(GUIDELINES, 'Clients SHOULD: … Support both paginated and non-paginated flows', 'SHOULD')],
  earlier: onRevisions(
    INITIALIZE_REVISIONS,
    sentence(GUIDELINES, 'Clients SHOULD: … Support both paginated and non-paginated flows', 'SHOULD'),
  ),
  run(ctx) {
    const lists = ctx.requests.filter((r) => r.method === 'tools/list');
    // A page ending with "" is page.client.empty-cursor's (a MUST NOT); here, pages with a cursor of some length.
    const paged = lists.filter((r) => {
      const next = ctx.resultOf(r)?.nextCursor;
      return typeof next === 'string' && next !== '';
    });
    if (paged.length === 0) return [skip('no tools/list page ended with a non-empty nextCursor')];
    // Going on is asking for a page with a cursor, later (whether it is the issued one is page.client.opaque's to
    // judge), or having fetched the next page before: a client may serve it from its cache, which the caching checks
    // judge.
    const fetchedBefore = (r: SeenRequest) =>
      lists.some((l) => l.seen.seq < r.seen.seq && l.params.cursor === ctx.resultOf(r)?.nextCursor);
    const stopped = paged.filter(
      (r) => !lists.some((l) => l.seen.seq > r.seen.seq && 'cursor' in l.params) && !fetchedBefore(r),
    );
    if (stopped.length === 0)
      return [pass(`after each of ${paged.length} page(s) with a nextCursor the client asked for the next page`)];
    const listed = ctx.listedTools();
    const unlisted = Object.keys(ctx.observed.offered).filter((name) => !listed.has(name));
    const last = stopped.at(-1)!;
    return [
      fail(
        `the listing stopped at the page of ${describeRequest(last)}, whose nextCursor was ` +
          `${JSON.stringify(ctx.resultOf(last)!.nextCursor)}: the client never asked for the next page` +
          `${unlisted.length > 0 ? `, so it never got ${unlisted.join(', ')}` : ''}`,
        'a tools/list request with that cursor, and so on until a page without nextCursor',
        stopped.slice(0, 3).map((r) => evidenceOf(r.seen)),
      ),
    ];
  },
});

export const PAGINATION_CHECKS: readonly ClientCheckDefinition[] = [CURSOR_OPAQUE, EMPTY_CURSOR, BOTH_FLOWS];
