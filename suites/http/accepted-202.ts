import { defineCheck } from '../kit/define-check.js';
import { type CheckDefinition, type Exchange, isObject, type SpecSentence } from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { onRevisions } from '../kit/same-sentences.js';

const SENDING = 'basic/transports#sending-messages-to-the-server';

/** 2025-06-18 and 2025-11-25: the body is one message. */
const SINGLE: SpecSentence = {
  ref: SENDING,
  text:
    'If the input is a JSON-RPC _response_ or _notification_: If the server accepts the input, the server MUST ' +
    'return HTTP status code 202 Accepted with no body.',
  keyword: 'MUST',
};
/**
 * 2025-03-26: the body may be a batch; a single notification is "solely" notifications too
 * (http.batch.notifications-202 judges batches).
 */
const SOLELY: SpecSentence = {
  ref: SENDING,
  text:
    'If the input consists solely of (any number of) JSON-RPC _responses_ or _notifications_: If the server ' +
    'accepts the input, the server MUST return HTTP status code 202 Accepted with no body.',
  keyword: 'MUST',
};

/**
 * A POST of ours whose body was one JSON-RPC notification or response (no batch): a message without an id, or an
 * answer.
 */
function singleNotificationOrResponse(e: Exchange): boolean {
  const message = e.request;
  if (!isObject(message) || Array.isArray(message) || 'httpMethod' in message) return false;
  const notification = typeof message.method === 'string' && !('id' in message);
  const response = !('method' in message) && 'id' in message && ('result' in message || 'error' in message);
  return notification || response;
}

const bodyOf = (e: Exchange): string => (e.response !== undefined ? JSON.stringify(e.response) : (e.rawBody ?? ''));

const describeMessage = (e: Exchange): string => {
  const message = e.request as Record<string, unknown>;
  return typeof message.method === 'string'
    ? message.method
    : `our response to the server's request ${JSON.stringify(message.id)}`;
};

/** What the POSTs carried, in short: the notifications by method, and how many responses. */
function summary(posts: readonly Exchange[]): string {
  const methods = [
    ...new Set(
      posts.map((e) => (e.request as Record<string, unknown>).method).filter((m): m is string => typeof m === 'string'),
    ),
  ];
  const responses = posts.filter((e) => typeof (e.request as Record<string, unknown>).method !== 'string').length;
  return [...methods, ...(responses > 0 ? [`${responses} response(s) to the server's requests`] : [])].join(', ');
}

/**
 * http.accepted-202: every POST of the audit's connection whose body was one notification (notifications/initialized,
 * cancellations) or one response (our answers to the server's requests). A POST answered with an HTTP error was not
 * accepted, which the next sentence allows ("If the server cannot accept the input, it MUST return an HTTP error status
 * code"); every other answer must be 202 with an empty body.
 */
export const accepted202: CheckDefinition = defineCheck({
  id: 'http.accepted-202',
  // The catalog's row (of 2026-07-28 notifications) in the same words; the initialize revisions' pages hold the rule.
  covers: ['http.notif.202'],
  title:
    'A POST of a single JSON-RPC notification or response that the server accepts is answered 202 Accepted ' +
    'with no body',
  area: 'http',
  sentences: {
    ...onRevisions(['2025-11-25', '2025-06-18'], SINGLE),
    '2025-03-26': [SOLELY],
  },
  needs: ['live', 'http'],
  phase: 'final',
  run(ctx) {
    const posts = [...ctx.exchanges(), ...ctx.client.answerPosts()].filter(singleNotificationOrResponse);
    if (posts.length === 0) return [skip('the audit POSTed no single notification or response on its connection')];
    const answered = posts.filter((e) => e.status !== undefined);
    if (answered.length === 0)
      return [
        skip(
          `none of the ${posts.length} POST(s) of a notification or response got an HTTP answer (` +
            `${posts[0]!.failure?.message ?? 'none'})`,
        ),
      ];
    const accepted = answered.filter((e) => e.status! < 400);
    const refused = answered.length - accepted.length;
    const refusedNote =
      refused > 0 ? `; ${refused} refused with an HTTP error status, which the sentence does not judge` : '';
    if (accepted.length === 0)
      return [
        skip(
          `every POST of a notification or response was refused with an HTTP error (e.g. ` +
            `${describeMessage(answered[0]!)}: HTTP ${answered[0]!.status}), which the sentence does not judge`,
        ),
      ];
    const wrong = accepted.filter((e) => e.status !== 202 || bodyOf(e) !== '');
    if (wrong.length === 0) {
      return [
        pass(
          `${accepted.length} POST(s) of a single notification or response (${summary(accepted)}) answered 202 ` +
            `with no body${refusedNote}`,
          accepted.slice(0, 3),
        ),
      ];
    }
    const first = wrong[0]!;
    const body = bodyOf(first);
    return [
      fail(
        `${wrong.length} of ${accepted.length} accepted POST(s) of a single notification or response were not ` +
          `answered 202 with no body, e.g. ${describeMessage(first)}: HTTP ${first.status}` +
          `${body === '' ? ' with no body' : ` with the body ${body.slice(0, 160)}`}`,
        'HTTP 202 Accepted with an empty body (or an HTTP error status, when the server cannot accept the input)',
        wrong.slice(0, 3),
      ),
    ];
  },
});

export const ACCEPTED_202_CHECKS = [accepted202] as const;
