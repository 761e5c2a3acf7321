import { defineCheck } from '../kit/define-check.js';
import type { CheckContext, CheckDefinition, Exchange, SpecSentence } from '../kit/index.js';
import {
  notificationsSeen,
  requestMeta,
  seenEvidence,
  valueKey,
  type SeenNotification,
} from '../kit/notifications-seen.js';
import { afterProbeWindow, notificationProbe } from './notification-probe.js';
import { fail, pass, skip } from '../kit/outcome.js';

const PROGRESS = 'notifications/progress';
const FLOW = 'basic/patterns/progress#progress-flow';

/** The progress page of the initialize revisions (2024-11-05 to 2025-11-25): the same three rules, worded alike. */
const EARLIER_PAGE = 'basic/utilities/progress';
const EARLIER_TOKEN_REF: SpecSentence = {
  ref: `${EARLIER_PAGE}#behavior-requirements`,
  text: 'Progress notifications MUST only reference tokens that: Were provided in an active request',
  keyword: 'MUST',
};
const EARLIER_INCREASE: SpecSentence = {
  ref: `${EARLIER_PAGE}#progress-flow`,
  text: 'The progress value MUST increase with each notification, even if the total is unknown.',
  keyword: 'MUST',
};
const EARLIER_STOP: SpecSentence = {
  ref: `${EARLIER_PAGE}#implementation-notes`,
  text: 'Progress notifications MUST stop after completion',
  keyword: 'MUST',
};

interface ProgressTraffic {
  seen: SeenNotification[];
  /** The progressToken of every request the audit sent, by value and JSON type. */
  sent: Map<string, Exchange>;
  probe: Awaited<ReturnType<typeof notificationProbe>>;
}

async function progressTraffic(ctx: CheckContext): Promise<ProgressTraffic> {
  const probe = await notificationProbe(ctx);
  const exchanges = ctx.exchanges();
  const sent = new Map<string, Exchange>();
  for (const exchange of exchanges) {
    const token = requestMeta(exchange).progressToken;
    if (token !== undefined) sent.set(valueKey(token), exchange);
  }
  return { seen: notificationsSeen(exchanges, ctx.strays(), PROGRESS), sent, probe };
}

function nothingSeen(traffic: ProgressTraffic): string {
  return 'skipped' in traffic.probe
    ? `no progress notification was seen, and no request with a progressToken could be sent: ${traffic.probe.skipped}`
    : '';
}

export const progressTokenRef: CheckDefinition = defineCheck({
  id: 'progress.token-ref',
  title: 'Every notifications/progress refers to a progressToken the client sent (same value, same JSON type)',
  area: 'progress',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/progress#behavior-requirements',
        text: 'Progress notifications MUST only reference tokens that: Were provided in an active request',
        keyword: 'MUST',
      },
    ],
    '2025-11-25': [EARLIER_TOKEN_REF],
    '2025-06-18': [EARLIER_TOKEN_REF],
    '2025-03-26': [EARLIER_TOKEN_REF],
    '2024-11-05': [EARLIER_TOKEN_REF],
  },
  phase: 'final',
  run: (ctx) =>
    afterProbeWindow(ctx, async () => {
      const traffic = await progressTraffic(ctx);
      const unknown = traffic.seen.filter((s) => !traffic.sent.has(valueKey(s.params.progressToken)));
      if (unknown.length === 0) {
        if (traffic.seen.length === 0 && nothingSeen(traffic)) return [skip(nothingSeen(traffic))];
        return [
          pass(
            `${traffic.seen.length} progress notification(s), each for a token the audit sent (` +
              `${[...traffic.sent.keys()].join(', ') || 'none sent'})`,
          ),
        ];
      }
      const token = unknown[0]!.params.progressToken;
      return [
        fail(
          `${unknown.length} progress notification(s) refer to token ${JSON.stringify(token)} (${typeof token}` +
            `), which no request sent; tokens sent: ${[...traffic.sent.keys()].join(', ') || 'none'}`,
          'progressToken equal to a token of a request in progress, with the same JSON type (the string "9017" ' +
            'is not the number 9017)',
          unknown.slice(0, 3).flatMap((u) => seenEvidence(u).slice(0, 1)),
        ),
      ];
    }),
});

/** Progress values for this token, in the order they arrived on the request's own exchange. */
function valuesOn(exchange: Exchange, seen: readonly SeenNotification[], tokenKey: string): unknown[] {
  return seen
    .filter((s) => s.holders.includes(exchange) && valueKey(s.params.progressToken) === tokenKey)
    .map((s) => s.params.progress);
}

export const progressIncreases: CheckDefinition = defineCheck({
  id: 'progress.increase',
  title: 'The progress value increases with each notification for a token',
  area: 'progress',
  sentences: {
    '2026-07-28': [
      {
        ref: FLOW,
        text: 'The progress value MUST increase with each notification, even if the total is unknown.',
        keyword: 'MUST',
      },
    ],
    '2025-11-25': [EARLIER_INCREASE],
    '2025-06-18': [EARLIER_INCREASE],
    '2025-03-26': [EARLIER_INCREASE],
    '2024-11-05': [EARLIER_INCREASE],
  },
  phase: 'final',
  run: (ctx) =>
    afterProbeWindow(ctx, async () => {
      const traffic = await progressTraffic(ctx);
      let notifications = 0;
      for (const [tokenKey, exchange] of traffic.sent) {
        const values = valuesOn(exchange, traffic.seen, tokenKey);
        notifications += values.length;
        const drop = values.findIndex(
          (v, i) =>
            i > 0 && !(typeof v === 'number' && typeof values[i - 1] === 'number' && v > (values[i - 1] as number)),
        );
        if (drop > 0) {
          return [
            fail(
              `progress for token ${tokenKey} went ${JSON.stringify(values[drop - 1])} → ` +
                `${JSON.stringify(values[drop])} (values in order: ${JSON.stringify(values.slice(0, 10))})`,
              'each progress value greater than the one before it for the same token',
              [exchange],
            ),
          ];
        }
      }
      if (notifications === 0) {
        const why = nothingSeen(traffic);
        return why
          ? [skip(why)]
          : [
              pass(
                'the server sent no progress notification for the request with a progressToken (it MAY choose not to)',
              ),
            ];
      }
      return [
        pass(
          `${notifications} progress notification(s) for ${traffic.sent.size} token(s), each value greater ` +
            `than the one before`,
        ),
      ];
    }),
});

/**
 * Over HTTP, a stream other than the request's own (the GET stream of the initialize revisions) is not ordered with
 * the response: what arrives there shortly after the response may have been written before it.
 */
export const OTHER_STREAM_MARGIN_MS = 500;

/**
 * A progress notification arrived after the response to its request: off the request's own stream, and (HTTP GET
 * stream) well after the answer.
 */
export function arrivedAfterResponse(seen: SeenNotification, request: Exchange, transportKind: string): boolean {
  if (request.response === undefined || seen.holders.includes(request)) return false;
  if (!seen.stray || transportKind !== 'http') return true;
  return Date.parse(seen.stray.at) > Date.parse(request.sentAt) + request.durationMs + OTHER_STREAM_MARGIN_MS;
}

export const progressStops: CheckDefinition = defineCheck({
  id: 'progress.stop',
  title: 'No notifications/progress for a token after the response to its request',
  area: 'progress',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/progress#implementation-notes',
        text: 'Progress notifications MUST stop after completion',
        keyword: 'MUST',
      },
    ],
    '2025-11-25': [EARLIER_STOP],
    '2025-06-18': [EARLIER_STOP],
    '2025-03-26': [EARLIER_STOP],
    '2024-11-05': [EARLIER_STOP],
  },
  phase: 'final',
  run: (ctx) =>
    afterProbeWindow(ctx, async () => {
      const traffic = await progressTraffic(ctx);
      const late = traffic.seen.filter((s) => {
        const request = traffic.sent.get(valueKey(s.params.progressToken));
        return request !== undefined && arrivedAfterResponse(s, request, ctx.transportKind);
      });
      if (late.length === 0) {
        const why = traffic.seen.length === 0 ? nothingSeen(traffic) : '';
        if (why) return [skip(why)];
        const where =
          ctx.transportKind === 'http'
            ? `; over HTTP the response ends its stream, so only other streams could show a late one (on the GET ` +
              `stream, one that arrived more than ${OTHER_STREAM_MARGIN_MS} ms after the response)`
            : '';
        return [
          pass(
            `no progress notification arrived after the response to its request (${traffic.seen.length} seen ` +
              `in all${where})`,
          ),
        ];
      }
      const token = late[0]!.params.progressToken;
      return [
        fail(
          `${late.length} progress notification(s) for token ${JSON.stringify(token)} arrived after the ` +
            `response to the request that sent it`,
          'progress notifications for a token only before the final response to its request',
          [traffic.sent.get(valueKey(token))!, ...seenEvidence(late[0]!)].slice(0, 3),
        ),
      ];
    }),
});

export const PROGRESS_CHECKS: readonly CheckDefinition[] = [progressTokenRef, progressIncreases, progressStops];
