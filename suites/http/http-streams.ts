import { defineCheck } from '../kit/define-check.js';
import {
  type CheckDefinition,
  type Exchange,
  isInitializeRevision,
  isObject,
  methodOf,
  type SpecSentence,
  type Revision,
} from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { requestMeta } from '../kit/notifications-seen.js';
import { responseMediaType } from '../kit/response-headers.js';

/** Notifications of a change a tools/call may itself have made (a tool that adds a tool, or writes a resource). */
const CHANGES: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
]);

/**
 * A notification on a request's own SSE stream is related when it is progress for that request's token, or a log
 * message. A list change or a resource update may be what the request itself caused (a tools/call that adds a tool):
 * on a tools/call's stream it relates to that call, on every revision. On the initialize revisions, whose sentence
 * names no kind of notification, only progress for another token is certainly unrelated; on 2026-07-28 a change
 * notification on the stream of any other request is (list changes arrive on a subscriptions/listen stream).
 */
export function unrelated(exchange: Exchange, wire: Revision): unknown[] {
  const token = requestMeta(exchange).progressToken;
  const call = methodOf(exchange) === 'tools/call';
  return exchange.notifications.filter((message) => {
    if (!isObject(message) || typeof message.method !== 'string' || 'id' in message) return false;
    if (message.method === 'notifications/message') return false;
    if (message.method === 'notifications/progress') {
      return token === undefined || !isObject(message.params) || message.params.progressToken !== token;
    }
    if (call && CHANGES.has(message.method)) return false;
    return !isInitializeRevision(wire);
  });
}

/** 2025-03-26 to 2025-11-25 (Streamable HTTP), in the same words. */
const EARLIER_RELATED: SpecSentence = {
  ref: 'basic/transports#sending-messages-to-the-server',
  text: 'These messages SHOULD relate to the originating client _request_.',
  keyword: 'SHOULD',
};

export const sseRelated: CheckDefinition = defineCheck({
  id: 'http.sse.related',
  covers: ['tools.listchanged.only-on-listen', 'http.sse.listen-only-changes'],
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/transports/streamable-http#receiving-messages',
        text: 'These notifications MUST relate to the originating client request.',
        keyword: 'MUST',
      },
      {
        ref: 'basic/transports/streamable-http#receiving-messages',
        text:
          'Request-scoped notifications like notifications/progress and notifications/message are not delivered ' +
          'on the listen stream — they flow only on the response stream of the request they relate to.',
        keyword: 'descriptive',
      },
    ],
    '2025-11-25': [EARLIER_RELATED],
    '2025-06-18': [EARLIER_RELATED],
    '2025-03-26': [EARLIER_RELATED],
  },
  title:
    "Notifications on a request's SSE stream relate to that request (its progress, log messages, a change a " +
    "tools/call made) — never another request's progress, nor (2026-07-28) a list_changed on another request's " +
    'stream',
  area: 'http',
  needs: ['http'],
  phase: 'final',
  run(ctx) {
    const streams = ctx.exchanges().filter((e) => methodOf(e) !== 'subscriptions/listen' && e.notifications.length > 0);
    if (streams.length === 0) return [skip('no response stream carried notifications')];
    const offending = streams
      .map((exchange) => ({ exchange, unrelated: unrelated(exchange, ctx.revision) }))
      .filter((s) => s.unrelated.length > 0);
    if (offending.length === 0)
      return [pass(`${streams.length} response stream(s) carried only related notifications`)];
    const first = offending[0]!;
    const methods = [...new Set(first.unrelated.map((m) => (isObject(m) ? String(m.method) : '?')))].join(', ');
    return [
      fail(
        `${offending.length} response stream(s) carried unrelated notifications, e.g. ${methods} on the ` +
          `${methodOf(first.exchange)} stream`,
        isInitializeRevision(ctx.revision)
          ? "notifications that relate to the request: progress only for the request's own progressToken"
          : "only notifications/progress for the request's own progressToken, notifications/message, and on a " +
              "tools/call's stream a change the call made; other list changes arrive on a subscriptions/listen " +
              'stream',
        offending.slice(0, 3).map((o) => o.exchange),
      ),
    ];
  },
});

/**
 * http.sse.x-accel: every response of the audit that was an SSE stream (Content-Type text/event-stream: a tools/call
 * streaming progress or log messages, a subscriptions/listen stream) is judged by its recorded headers. The value
 * is compared case-insensitively and trimmed (proxies read it so); absent or any other value warns.
 */
export const sseNoBuffering: CheckDefinition = defineCheck({
  id: 'http.sse.x-accel',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/transports/streamable-http#receiving-messages',
        text:
          'When initiating an SSE stream, servers SHOULD include the X-Accel-Buffering: no header in the HTTP ' +
          'response.',
        keyword: 'SHOULD',
      },
    ],
  },
  title: 'Every SSE response carries the header X-Accel-Buffering: no',
  area: 'http',
  needs: ['http'],
  phase: 'final',
  run(ctx) {
    const streams = ctx.exchanges().filter((e) => responseMediaType(e) === 'text/event-stream');
    if (streams.length === 0)
      return [skip('no response of this audit was an SSE stream (Content-Type: text/event-stream)')];
    const without = streams.filter((e) => e.responseHeaders?.['x-accel-buffering']?.trim().toLowerCase() !== 'no');
    if (without.length === 0) return [pass(`${streams.length} SSE response(s) carried X-Accel-Buffering: no`)];
    const first = without[0]!;
    const value = first.responseHeaders?.['x-accel-buffering'];
    return [
      fail(
        `${without.length} of ${streams.length} SSE response(s) lacked X-Accel-Buffering: no, e.g. the ` +
          `${methodOf(first)} stream (exchange #${first.seq}) ` +
          `${value === undefined ? 'had no X-Accel-Buffering header' : `had X-Accel-Buffering: ${value}`}`,
        'X-Accel-Buffering: no on every response that starts an SSE stream, so that proxies such as nginx do ' +
          'not buffer the events',
        without.slice(0, 3),
      ),
    ];
  },
});

export const HTTP_STREAM_CHECKS: readonly CheckDefinition[] = [sseRelated, sseNoBuffering];
