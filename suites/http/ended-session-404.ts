import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  type Exchange,
  type McpClient,
  type Outcome,
  pending,
  TargetGoneError,
} from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { perRevision, STREAMABLE_HTTP_SESSION_REVISIONS } from '../kit/same-sentences.js';

const SESSIONS = 'basic/transports#session-management';

const shown = (e: Exchange): string =>
  e.status === undefined ? `no HTTP answer (${e.failure?.message ?? 'none'})` : `HTTP ${e.status}`;

/** The DELETE of a session of the check's own, then a ping naming it; or why there was nothing to judge. */
async function endThenPing(ctx: CheckContext): Promise<{ remove: Exchange; ping: Exchange } | string> {
  let client: McpClient;
  try {
    client = await ctx.anotherConnection();
  } catch (error) {
    return `could not open a session of its own: ${error instanceof Error ? error.message : String(error)}`;
  }
  try {
    const session = client.sessionId;
    if (session === undefined)
      return 'the server issued no session id (Mcp-Session-Id) on initialize, so there is no session to end';
    const remove = await client.probeMethod('DELETE', client.headersFor(ctx.revision, 'DELETE', {}, undefined));
    if (!remove) return 'this transport cannot send DELETE';
    if (remove.status === 405)
      return (
        'the server refused the DELETE with 405 Method Not Allowed: it does not let clients end sessions, so ' +
        'none was ended'
      );
    if (remove.status === undefined || remove.status < 200 || remove.status >= 300)
      return `the server did not accept the DELETE that ends the session (${shown(remove)}), so no session was ended`;
    let ping: Exchange;
    try {
      ping = await client.request('ping', {}, { probe: true });
    } catch (error) {
      if (!(error instanceof TargetGoneError)) throw error;
      ping = error.exchange;
    }
    return { remove, ping };
  } finally {
    await client.transport.close();
  }
}

export function judgeEndedSession(remove: Exchange, ping: Exchange): Outcome {
  if (ping.status === undefined) return skip(`the request naming the ended session got ${shown(ping)}`);
  if (ping.status === 404)
    return pass(
      `after the DELETE was accepted (HTTP ${remove.status}), a ping naming the ended session got HTTP 404 Not Found`,
      [remove, ping],
    );
  return fail(
    `after the DELETE that ended the session was accepted (HTTP ${remove.status}), a ping naming that session ` +
      `got ${shown(ping)}${ping.status < 300 ? ': the ended session was still served' : ''}`,
    'HTTP 404 Not Found for every request naming a session the server has terminated',
    [remove, ping],
  );
}

/**
 * http.ended-session-404: on a session of its own (over Streamable HTTP, another connection, negotiated like the
 * audit's), the check ends the session with a DELETE ("The server MAY terminate the session at any time" — a DELETE it
 * accepts terminates it) and then sends a ping naming it.
 */
export const endedSession404: CheckDefinition = defineCheck({
  id: 'http.ended-session-404',
  title: 'Once a session is ended (by a DELETE the server accepted), requests naming its id are answered 404 Not Found',
  area: 'http',
  sentences: perRevision(STREAMABLE_HTTP_SESSION_REVISIONS, () => [
    {
      ref: SESSIONS,
      text:
        'The server MAY terminate the session at any time, after which it MUST respond to requests containing ' +
        'that session ID with HTTP 404 Not Found.',
      keyword: 'MUST',
    },
  ]),
  needs: ['live', 'http'],
  run(ctx) {
    if (!ctx.canOpenConnections)
      return [skip('cannot open a separate connection to this target, and the audited session is not ended')];
    // A session of its own, opened and ended while the phases go on.
    return pending(
      endThenPing(ctx).then((ended) => [
        typeof ended === 'string' ? skip(ended) : judgeEndedSession(ended.remove, ended.ping),
      ]),
    );
  },
});

export const ENDED_SESSION_CHECKS = [endedSession404] as const;
