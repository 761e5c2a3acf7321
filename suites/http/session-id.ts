import { defineCheck } from '../kit/define-check.js';
import type { CheckDefinition, Exchange } from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { perRevision, STREAMABLE_HTTP_SESSION_REVISIONS } from '../kit/same-sentences.js';

const SESSIONS = 'basic/transports#session-management';
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** A session id as a quotable string: every character outside visible ASCII shown as its code point. */
const shown = (id: string) =>
  [...id]
    .map((c) => (/[\x21-\x7e]/.test(c) ? c : `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`))
    .join('');

export const sessionIdVisibleAscii: CheckDefinition = defineCheck({
  id: 'http.session.id-visible-ascii',
  title: 'A session id the server assigns holds only visible ASCII characters (0x21 to 0x7E)',
  area: 'http-headers',
  sentences: perRevision(STREAMABLE_HTTP_SESSION_REVISIONS, () => [
    {
      ref: SESSIONS,
      text: 'The session ID MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E).',
      keyword: 'MUST',
    },
  ]),
  needs: ['live', 'http'],
  // After the other checks: a server may assign ids on later responses too, and every response of the audit's
  // connection is read.
  phase: 'final',
  run(ctx) {
    const assigning = ctx
      .exchanges()
      .filter(
        (e): e is Exchange & { responseHeaders: Record<string, string> } =>
          e.responseHeaders?.['mcp-session-id'] !== undefined,
      );
    if (assigning.length === 0) return [skip('the server assigned no session id (it MAY): nothing to judge')];
    const ids = [...new Set(assigning.map((e) => e.responseHeaders['mcp-session-id']))];
    const bad = ids.filter((id) => !VISIBLE_ASCII.test(id));
    if (bad.length === 0)
      return [pass(`${ids.length} session id(s) assigned, each of visible ASCII only`, [assigning[0]!])];
    const evidence = bad.map((id) => assigning.find((e) => e.responseHeaders['mcp-session-id'] === id)!);
    return [
      fail(
        `${bad.length} of ${ids.length} session id(s) hold characters outside 0x21–0x7E: ${bad
          .slice(0, 3)
          .map((id) => JSON.stringify(shown(id)))
          .join(', ')}`,
        'Mcp-Session-Id values of visible ASCII characters only (0x21 to 0x7E): no space, control or non-ASCII ' +
          'character',
        evidence.slice(0, 3),
      ),
    ];
  },
});
