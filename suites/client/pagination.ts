import type { ClientCheckDefinition } from '../../src/runner/client-check.js';
import { clientCheck, describeRequest, fail, judgeRequests, pass, sentence, skip } from './kit.js';
import { evidenceOf } from '../../src/runner/client-check.js';

const GUIDELINES = 'server/utilities/pagination#implementation-guidelines';

export const CURSOR_OPAQUE = clientCheck({
  id: 'page.client.opaque',
  title: 'Cursors go back exactly as the server issued them',
  area: 'tools-list',
  scenario: 'pagination',
  sentences: [sentence(GUIDELINES, 'Clients MUST treat cursors as opaque tokens:', 'MUST')],
  run(ctx) {
    const issued = new Set<string>();
    const withCursor: { request: (typeof ctx.requests)[number]; problem: string }[] = [];
    let judged = 0;
    for (const request of ctx.requests) {
      if (request.method !== 'tools/list') continue;
      if ('cursor' in request.params) {
        judged += 1;
        const cursor = request.params.cursor;
        if (typeof cursor !== 'string' || !issued.has(cursor)) withCursor.push({ request, problem: `${describeRequest(request)} sent cursor ${JSON.stringify(cursor)}, which the server never issued` });
      }
      const next = ctx.resultOf(request)?.nextCursor;
      if (typeof next === 'string') issued.add(next);
    }
    return judgeRequests(judged, 'the client sent no tools/list with a cursor', withCursor, `all ${judged} cursors went back byte for byte`, `a cursor exactly as issued (issued: ${[...issued].map((c) => JSON.stringify(c)).join(', ')})`);
  },
});

export const EMPTY_CURSOR = clientCheck({
  id: 'page.client.empty-cursor',
  title: 'nextCursor "" is followed, not taken as the end',
  area: 'tools-list',
  scenario: 'pagination',
  sentences: [sentence(GUIDELINES, 'an empty string is a valid cursor and thus MUST NOT be treated as the end of results', 'MUST NOT')],
  run(ctx) {
    const lists = ctx.requests.filter((r) => r.method === 'tools/list');
    const emptyAt = lists.find((r) => ctx.resultOf(r)?.nextCursor === '');
    if (!emptyAt) return [skip('no tools/list page ended with nextCursor ""')];
    const followed = lists.find((r) => r.seen.seq > emptyAt.seen.seq && r.params.cursor === '');
    if (followed) return [pass(`after nextCursor "" the client asked for the next page with cursor "" (${describeRequest(followed)})`, [evidenceOf(followed.seen)])];
    return [fail(`the page of ${describeRequest(emptyAt)} had nextCursor "", and the client asked for no page with cursor ""`, 'a tools/list request with cursor "" (an empty cursor is not the end)', [evidenceOf(emptyAt.seen)])];
  },
});

export const PAGINATION_CHECKS: readonly ClientCheckDefinition[] = [CURSOR_OPAQUE, EMPTY_CURSOR];
