import { defineCheck } from '../kit/define-check.js';
import {
  type CheckDefinition,
  ERR,
  errorOf,
  type Exchange,
  isInitializeRevision,
  isObject,
  LOG_LEVELS,
  META_LOG_LEVEL,
  resultOf,
  type SpecSentence,
} from '../kit/index.js';
import {
  isListen,
  notificationsSeen,
  requestMeta,
  seenEvidence,
  type SeenNotification,
} from '../kit/notifications-seen.js';
import { afterProbeWindow, notificationProbe } from './notification-probe.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { fromRevision } from '../kit/same-sentences.js';

const LOG_MESSAGE = 'notifications/message';
const PAGE = 'server/utilities/logging#per-request-log-level';

const NO_LEVEL_NO_MESSAGE: SpecSentence = {
  ref: PAGE,
  text: 'The server MUST NOT emit notifications/message for a request that does not include this field.',
  keyword: 'MUST NOT',
};
const REQUEST_SCOPED: SpecSentence = {
  ref: PAGE,
  text:
    'notifications/message is request-scoped: the server MUST NOT deliver it on a subscriptions/listen stream ' +
    'or on any stream other than the one carrying the response to the request that set the log level.',
  keyword: 'MUST NOT',
};
const AT_OR_ABOVE: SpecSentence = {
  ref: PAGE,
  text:
    'When the field is present, the server MAY send notifications/message notifications at or above the ' +
    'requested level on the response stream of that request, before the final response.',
  keyword: 'MAY',
};
const INVALID_LEVEL: SpecSentence = {
  ref: 'server/utilities/logging#error-handling',
  text:
    "If the io.modelcontextprotocol/logLevel value carried in a request's _meta is not a recognized log level, " +
    'the server SHOULD reject that request with a standard JSON-RPC error: … Invalid log level: -32602 (Invalid ' +
    'params)',
  keyword: 'SHOULD',
};

/**
 * Initialize revisions: the level is set once, with logging/setLevel, by a server that declares the logging capability.
 */
const EARLIER_INVALID_LEVEL: SpecSentence = {
  ref: 'server/utilities/logging#error-handling',
  text:
    'Servers SHOULD return standard JSON-RPC errors for common failure cases: Invalid log level: -32602 ' +
    '(Invalid params)',
  keyword: 'SHOULD',
};
/** Not one of the RFC 5424 levels the logging page lists. */
const INVALID_LEVEL_PROBE = 'verbose';

/** The request asked for log messages: its _meta carries io.modelcontextprotocol/logLevel. */
export const hasLevel = (exchange: Exchange): boolean => META_LOG_LEVEL in requestMeta(exchange);

/**
 * Why this log message breaks "no notifications/message for a request without a log level", if it does. Over HTTP
 * its stream names the request (a listen stream is log.request-scoped's to judge); over stdio it is blamed only when
 * no request in flight at its arrival had asked for messages, and a stray one only when no request had asked before it.
 */
export function unaskedMessage(
  seen: SeenNotification,
  transport: string,
  exchanges: readonly Exchange[],
): string | undefined {
  if (seen.stray) {
    const askedBefore = exchanges.some((e) => hasLevel(e) && e.sentAt <= seen.stray!.at);
    return askedBefore
      ? undefined
      : 'arrived while no request was in flight, and no request of the audit had set a log level';
  }
  if (transport === 'http') {
    const stream = seen.holders[0]!;
    if (isListen(stream) || hasLevel(stream)) return undefined;
    return `arrived on the response stream of ${describeRequest(stream)}, which set no log level`;
  }
  if (seen.holders.some(hasLevel)) return undefined;
  return (
    `arrived while only requests without a log level were in flight (` +
    `${seen.holders.slice(0, 3).map(describeRequest).join(', ')})`
  );
}

function describeRequest(exchange: Exchange): string {
  const request = isObject(exchange.request) ? exchange.request : {};
  return `${String(request.method)} (id ${JSON.stringify(request.id)})`;
}

export const logOnlyWhenAsked: CheckDefinition = defineCheck({
  id: 'log.no-level-no-message',
  title: 'No notifications/message for a request that did not set io.modelcontextprotocol/logLevel in its _meta',
  area: 'logging',
  sentences: { '2026-07-28': [NO_LEVEL_NO_MESSAGE] },
  phase: 'final',
  run: (ctx) =>
    afterProbeWindow(ctx, async () => {
      await notificationProbe(ctx);
      const exchanges = ctx.exchanges();
      const seen = notificationsSeen(exchanges, ctx.strays(), LOG_MESSAGE);
      const unasked = seen.flatMap((s) => {
        const why = unaskedMessage(s, ctx.transportKind, exchanges);
        return why ? [{ s, why }] : [];
      });
      const requests = exchanges.filter((e) => isObject(e.request) && 'id' in e.request && !hasLevel(e)).length;
      if (unasked.length === 0) {
        return [
          pass(
            `no notifications/message for any of the ${requests} requests that set no log level (${seen.length}` +
              ` log message(s) seen in all)`,
          ),
        ];
      }
      return [
        fail(
          `${unasked.length} notifications/message were sent for requests that set no log level: the first ` +
            `${unasked[0]!.why}`,
          'log messages only on the response stream of a request whose _meta carries io.modelcontextprotocol/logLevel',
          unasked.slice(0, 5).flatMap((u) => seenEvidence(u.s).slice(0, 1)),
        ),
      ];
    }),
});

export const logRequestScoped: CheckDefinition = defineCheck({
  id: 'log.request-scoped',
  title: 'notifications/message never arrives on a subscriptions/listen stream',
  area: 'logging',
  sentences: { '2026-07-28': [REQUEST_SCOPED] },
  needs: ['http'],
  phase: 'final',
  run(ctx) {
    const listens = ctx.exchanges().filter(isListen);
    if (listens.length === 0)
      return [
        skip(
          'no subscriptions/listen stream was opened in this audit (the server does not declare ' +
            'tools.listChanged, or no listen check ran)',
        ),
      ];
    const seen = notificationsSeen(listens, [], LOG_MESSAGE);
    if (seen.length === 0)
      return [pass(`${listens.length} subscriptions/listen stream(s) carried no notifications/message`)];
    return [
      fail(
        `${seen.length} notifications/message arrived on a subscriptions/listen stream (level ` +
          `${JSON.stringify(seen[0]!.params.level)})`,
        'log messages only on the response stream of the request that set the log level; a listen stream ' +
          'carries only the notifications it subscribed to',
        seen.slice(0, 3).map((s) => s.holders[0]!),
      ),
    ];
  },
});

export const logAtOrAbove: CheckDefinition = defineCheck({
  id: 'log.may-at-or-above',
  title: 'Log messages for a request that set a log level are at or above that level',
  area: 'logging',
  sentences: { '2026-07-28': [AT_OR_ABOVE] },
  needs: ['tool-call'],
  phase: 'final',
  run: (ctx) =>
    afterProbeWindow(ctx, async () => {
      const probe = await notificationProbe(ctx);
      if ('skipped' in probe) return [skip(probe.skipped)];
      const asked = LOG_LEVELS.indexOf(probe.logLevel as (typeof LOG_LEVELS)[number]);
      const messages = notificationsSeen([probe.exchange], [], LOG_MESSAGE);
      const below = messages.filter((m) => {
        const rank = LOG_LEVELS.indexOf(m.params.level as (typeof LOG_LEVELS)[number]);
        return rank >= 0 && rank < asked;
      });
      if (below.length === 0) {
        return [
          pass(
            `a tools/call with log level "${probe.logLevel}" got ${messages.length} log message(s), none below ` +
              `that level`,
            [probe.exchange],
          ),
        ];
      }
      return [
        fail(
          `${below.length} of ${messages.length} log message(s) for a tools/call that asked for "` +
            `${probe.logLevel}" are below it (level ${JSON.stringify(below[0]!.params.level)}): outside what the ` +
            `sentence permits`,
          `only messages at or above "${probe.logLevel}" (${LOG_LEVELS.slice(asked).join(', ')})`,
          [probe.exchange],
        ),
      ];
    }),
});

export const logInvalidLevel: CheckDefinition = defineCheck({
  id: 'log.invalid-level',
  title:
    'An unrecognized log level is rejected with -32602 (io.modelcontextprotocol/logLevel in _meta; ' +
    'logging/setLevel on the initialize revisions)',
  area: 'logging',
  sentences: {
    '2026-07-28': [INVALID_LEVEL],
    '2025-11-25': [EARLIER_INVALID_LEVEL],
    '2025-06-18': [EARLIER_INVALID_LEVEL],
    '2025-03-26': [EARLIER_INVALID_LEVEL],
    '2024-11-05': [EARLIER_INVALID_LEVEL],
  },
  needs: ['live'],
  async run(ctx) {
    let what: string;
    let exchange: Exchange;
    if (isInitializeRevision(ctx.revision)) {
      const { capabilities } = await ctx.capabilities();
      if (!isObject(capabilities?.logging))
        return [
          skip(
            'the server does not declare the logging capability, so it has no logging/setLevel to reject a level with',
          ),
        ];
      what = `logging/setLevel with level "${INVALID_LEVEL_PROBE}"`;
      exchange = await ctx.client.request('logging/setLevel', { level: INVALID_LEVEL_PROBE }, { probe: true });
    } else {
      what = `tools/list with log level "${INVALID_LEVEL_PROBE}"`;
      exchange = await ctx.client.request(
        'tools/list',
        {},
        { extraMeta: { [META_LOG_LEVEL]: INVALID_LEVEL_PROBE }, probe: true },
      );
    }
    const error = errorOf(exchange.response);
    if (error?.code === ERR.invalidParams) return [pass(`${what} was rejected with -32602`, [exchange])];
    const got = error
      ? `rejected with ${JSON.stringify(error.code)}`
      : resultOf(exchange.response)
        ? 'answered with a result'
        : (exchange.failure?.message ?? 'not answered');
    return [fail(`${what} (not a log level) was ${got}`, 'a JSON-RPC error -32602 (Invalid params)', [exchange])];
  },
});

const DECLARES_LOGGING: SpecSentence = {
  ref: 'server/utilities/logging#capabilities',
  text: 'Servers that emit log message notifications MUST declare the logging capability',
  keyword: 'MUST',
};

export const logCapabilityDeclared: CheckDefinition = defineCheck({
  id: 'log.capability-declared',
  title: 'A server that sends notifications/message declares the logging capability',
  area: 'logging',
  // The same sentence on every revision: a server may send log messages on the initialize wire without any
  // logging/setLevel (the level is then its own choice), but not without declaring the capability.
  sentences: fromRevision('2024-11-05', DECLARES_LOGGING),
  needs: ['live'],
  phase: 'final',
  run: (ctx) =>
    afterProbeWindow(ctx, async () => {
      await notificationProbe(ctx);
      const seen = notificationsSeen(ctx.exchanges(), ctx.strays(), LOG_MESSAGE);
      if (seen.length === 0) return [skip('the server sent no notifications/message in this audit')];
      const { capabilities, exchange } = await ctx.capabilities();
      const first = `the first at level ${JSON.stringify(seen[0]!.params.level)}`;
      if (capabilities !== undefined && Object.hasOwn(capabilities, 'logging')) {
        return [
          pass(
            `${seen.length} notifications/message received (${first}), and the server declares the logging capability`,
            [exchange],
          ),
        ];
      }
      return [
        fail(
          `${seen.length} notifications/message received (${first}), but the capabilities the server declared ` +
            `${
              capabilities === undefined
                ? 'are missing'
                : `have no logging (` + `${Object.keys(capabilities).join(', ') || 'none'})`
            }`,
          'capabilities.logging (e.g. {}) in the capabilities of a server that sends log messages',
          [exchange, ...seenEvidence(seen[0]!).slice(0, 1)],
        ),
      ];
    }),
});

export const LOGGING_CHECKS: readonly CheckDefinition[] = [
  logOnlyWhenAsked,
  logRequestScoped,
  logAtOrAbove,
  logInvalidLevel,
  logCapabilityDeclared,
];
