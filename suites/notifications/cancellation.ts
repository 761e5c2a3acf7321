import { defineCheck } from '../kit/define-check.js';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CANCEL_WATCH_MS,
  type CheckContext,
  type CheckDefinition,
  type Evidence,
  type Exchange,
  isInitializeRevision,
  isObject,
  type JsonRpcId,
  lateAnswer,
  type McpClient,
  methodOf,
  LATEST_REVISION,
  type Outcome,
  pending,
  readMarkerMethod,
  type SentCancellation,
  type SpecSentence,
  type StrayEvent,
  type Revision,
} from '../kit/index.js';
import {
  isListen,
  notificationsSeen,
  requestMeta,
  seenEvidence,
  valueKey,
  type SeenNotification,
} from '../kit/notifications-seen.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { LISTING_ONLY } from '../kit/shared-connections.js';
import { hasLevel } from './logging.js';

/** How long the serial probe listens for answers to the notifications it sent. */
const NOTIFICATION_WATCH_MS = 100;

const STDIO_SILENCE: SpecSentence = {
  ref: 'basic/transports/stdio#cancellation',
  text:
    'Servers SHOULD stop work on a cancelled request as soon as practical and MUST NOT send any further ' +
    'messages for it.',
  keyword: 'MUST NOT',
};
/** The cancellation page of the initialize revisions (2024-11-05 to 2025-11-25), worded alike in all four. */
const EARLIER_CANCEL = 'basic/utilities/cancellation#behavior-requirements';
const EARLIER_NO_RESPONSE: SpecSentence = {
  ref: EARLIER_CANCEL,
  text: 'Receivers of cancellation notifications SHOULD: … Not send a response for the cancelled request',
  keyword: 'SHOULD',
};
/** Initialize revisions: a progress notification after the cancellation was read shows the work went on. */
const EARLIER_STOP: SpecSentence = {
  ref: EARLIER_CANCEL,
  text: 'Receivers of cancellation notifications SHOULD: Stop processing the cancelled request',
  keyword: 'SHOULD',
};

/**
 * Where the server showed it had read a cancellation: the answer to the read marker sent right behind it (stdio is one
 * ordered channel, and a server reads its stdin in order). What it wrote before that answer may have been on its way
 * before it read the cancellation; what it wrote after, it wrote knowing.
 */
export interface ReadPoint {
  marker: Exchange;
  /** The seq of the marker's answer (Exchange.answeredSeq, or StrayEvent.seq for an answer after its timeout). */
  seq: number;
  /**
   * A message not recorded on the marker that arrived after this seq came after the marker's answer: the marker's
   * own seq when it was answered in time and kept every notification that arrived meanwhile, else its answer's seq.
   */
  since: number;
}

export function readPoint(marker: Exchange | undefined, strays: readonly StrayEvent[]): ReadPoint | undefined {
  if (!marker) return undefined;
  if (marker.response !== undefined && !marker.failure && marker.answeredSeq !== undefined) {
    return { marker, seq: marker.answeredSeq, since: marker.notificationsDropped ? marker.answeredSeq : marker.seq };
  }
  const id = valueKey((marker.request as { id?: unknown }).id);
  const late = strays.find(
    (s) => s.kind === 'unknown-id' && s.seq !== undefined && isObject(s.data) && valueKey(s.data.id) === id,
  );
  return late ? { marker, seq: late.seq!, since: late.seq! } : undefined;
}

/** Bounds on when a notification arrived, in the run's sequence: after `from`, before `to`. */
function arrival(seen: SeenNotification): { from: number; to: number } {
  if (seen.stray) return { from: seen.stray.seq ?? 0, to: seen.stray.seq ?? Infinity };
  return {
    from: Math.max(...seen.holders.map((h) => h.seq)),
    to: Math.min(...seen.holders.map((h) => h.answeredSeq ?? Infinity)),
  };
}

/** A notification certainly arrived after the marker's answer (an undecidable one does not count). */
const cameAfter = (seen: SeenNotification, read: ReadPoint): boolean =>
  !seen.holders.includes(read.marker) && arrival(seen).from > read.since;

/**
 * Another request that asked for log messages could own this one: it was sent before the message arrived and not
 * answered before (2026-07-28 permits a request's log messages "before the final response").
 */
function otherLogOwner(seen: SeenNotification, call: Exchange, exchanges: readonly Exchange[]): boolean {
  const { from, to } = arrival(seen);
  return exchanges.some(
    (e) => e !== call && hasLevel(e) && e.seq < to && !(e.answeredSeq !== undefined && e.answeredSeq < from),
  );
}

export interface SentAfterRead {
  kind: 'answer' | 'progress' | 'log';
  description: string;
  evidence: Evidence;
}

/**
 * What the server sent for a cancelled call after it had read the cancellation: an answer to its id; a
 * notifications/progress for its progressToken; on 2026-07-28, where log messages are request-scoped, a
 * notifications/message when the call asked for them and no other request that did could own it.
 */
export function sentAfterRead(
  cancel: Pick<SentCancellation, 'call' | 'notice'>,
  read: ReadPoint,
  exchanges: readonly Exchange[],
  strays: readonly StrayEvent[],
  wire: Revision,
): SentAfterRead[] {
  const { call } = cancel;
  const after = `received after the answer to the ${methodOf(read.marker)} sent right behind the cancellation`;
  const answers = answersTo(call, strays)
    .filter((s) => (s.seq ?? 0) > read.seq)
    .map((s): SentAfterRead => ({
      kind: 'answer',
      description:
        `an answer to it, ${Date.parse(s.at) - Date.parse(cancel.notice.sentAt)} ms after our ` +
        `notifications/cancelled`,
      evidence: note(`the answer to the cancelled request, ${after}`, s.data),
    }));
  const token = requestMeta(call).progressToken;
  const progress =
    token === undefined
      ? []
      : notificationsSeen(exchanges, strays, 'notifications/progress')
          .filter((s) => valueKey(s.params.progressToken) === valueKey(token) && cameAfter(s, read))
          .map((s): SentAfterRead => ({
            kind: 'progress',
            description: `a notifications/progress for its progressToken ${JSON.stringify(token)}`,
            evidence: note(`notifications/progress ${after}`, s.message),
          }));
  const logs =
    wire !== LATEST_REVISION || !hasLevel(call)
      ? []
      : notificationsSeen(exchanges, strays, 'notifications/message')
          .filter((s) => cameAfter(s, read) && !otherLogOwner(s, call, exchanges))
          .map((s): SentAfterRead => ({
            kind: 'log',
            description:
              `a notifications/message (level ${JSON.stringify(s.params.level)}), while no other request ` +
              `that asked for log messages was in progress`,
            evidence: note(`notifications/message ${after}`, s.message),
          }));
  return [...answers, ...progress, ...logs];
}

const requestIdOf = (exchange: Exchange): JsonRpcId => (exchange.request as { id: JsonRpcId }).id;

/** Answers to this call that came after it timed out, whenever they came. */
const answersTo = (call: Exchange, strays: readonly StrayEvent[]): StrayEvent[] =>
  strays.filter(
    (s) => s.kind === 'unknown-id' && isObject(s.data) && valueKey(s.data.id) === valueKey(requestIdOf(call)),
  );

export const cancelSilence: CheckDefinition = defineCheck({
  id: 'stdio.cancel.server-silence',
  covers: ['cancel.server.should-stop'],
  title:
    'Once the server has read notifications/cancelled for a call, it sends nothing more for it (no answer, ' +
    'progress or log message)',
  area: 'cancellation',
  sentences: {
    '2026-07-28': [STDIO_SILENCE],
    '2025-11-25': [EARLIER_NO_RESPONSE, EARLIER_STOP],
    '2025-06-18': [EARLIER_NO_RESPONSE, EARLIER_STOP],
    '2025-03-26': [EARLIER_NO_RESPONSE, EARLIER_STOP],
    '2024-11-05': [EARLIER_NO_RESPONSE, EARLIER_STOP],
  },
  needs: ['stdio'],
  phase: 'final',
  judgesLateAnswers: true,
  run(ctx) {
    const sent = ctx.cancellations();
    if (sent.length === 0)
      return [skip('no request was cancelled in this audit (it cancels only tool calls that outlive --timeout)')];
    // The watch began with the cancellation; what is left of it does not hold up the checks after this one.
    return pending(judgeCancelled(ctx, [...sent]));
  },
});

/** Waits until the last cancellation's watch is over, then judges what the server sent for each cancelled call. */
async function judgeCancelled(ctx: CheckContext, sent: readonly SentCancellation[]): Promise<Outcome[]> {
  const marker = readMarkerMethod(ctx.revision);
  const markers = await Promise.all(sent.map((c) => c.marker));
  // A marker answered after its wait (a server busy with the cancelled call, on a loaded machine) still shows the read.
  await Promise.all(markers.map((m) => (m?.failure ? lateAnswer(m) : undefined)));
  const watchUntil = Math.max(...sent.map((c) => Date.parse(c.notice.sentAt))) + CANCEL_WATCH_MS;
  if (watchUntil > Date.now()) await sleep(watchUntil - Date.now());
  const exchanges = ctx.exchanges();
  const strays = ctx.strays();
  const judged = sent.map((cancel, i) => ({ cancel, read: readPoint(markers[i], strays) }));
  const decided = judged.filter((j): j is { cancel: SentCancellation; read: ReadPoint } => j.read !== undefined);
  for (const { cancel, read } of decided) {
    const late = sentAfterRead(cancel, read, exchanges, strays, ctx.revision);
    if (late.length === 0) continue;
    const first = late[0]!;
    return [
      {
        ...fail(
          `after the server had read our notifications/cancelled for the request with id ` +
            `${JSON.stringify(requestIdOf(cancel.call))} (it had answered the ${marker} sent right behind it), ` +
            `it sent ${late.length} more message(s) for that request, first ${first.description}`,
          `nothing more for a cancelled request once the server has read the cancellation (what arrives before ` +
            `its answer to the ${marker} sent right behind it may have been written before, and is not held ` +
            `against it)`,
          [cancel.call, cancel.notice, read.marker, ...late.slice(0, 3).map((l) => l.evidence)],
        ),
        // The initialize revisions have no sentence for notifications; a progress notification shows the processing
        // went on.
        ...(first.kind === 'answer' ? {} : { sentence: EARLIER_STOP }),
      },
    ];
  }
  const undecided = judged.length - decided.length;
  const unanswered =
    `the server did not answer the ${marker} sent right behind the notifications/cancelled within ` +
    `${CANCEL_WATCH_MS} ms, so nothing shows when it read the cancellation`;
  if (decided.length === 0) {
    return [
      skip(
        `${undecided} cancelled request(s), none judged: ${unanswered}, and what it sent for the request may ` +
          `have been written before it did`,
      ),
    ];
  }
  const before = decided.filter(({ cancel, read }) =>
    answersTo(cancel.call, strays).some((s) => (s.seq ?? 0) < read.seq),
  ).length;
  const beforeNote =
    before > 0
      ? `; ${before} of them answered before that, written before the server read the cancellation (not held ` +
        `against it)`
      : '';
  const undecidedNote = undecided > 0 ? `; ${undecided} more not judged (${unanswered})` : '';
  return [
    pass(
      `${decided.length} cancelled request(s): nothing more for them once the server had read the cancellation ` +
        `(it answered the ${marker} sent right behind it)${beforeNote}${undecidedNote}`,
      decided.slice(0, 3).flatMap(({ cancel, read }) => [cancel.notice, read.marker]),
    ),
  ];
}

/**
 * Initialize revisions: "Cancellation notifications MUST only reference requests that: Were previously issued in the
 * same direction".
 */
const SAME_DIRECTION: SpecSentence = {
  ref: EARLIER_CANCEL,
  text: 'Cancellation notifications MUST only reference requests that: Were previously issued in the same direction',
  keyword: 'MUST',
};

/**
 * The ids of the requests the server sent the client (initialize revisions: roots/list, sampling, elicitation, ping).
 */
export function serverRequestIds(exchanges: readonly Exchange[], strays: readonly StrayEvent[]): Set<string> {
  const ids = new Set<string>();
  const add = (message: unknown) => {
    if (isObject(message) && typeof message.method === 'string' && 'id' in message) ids.add(valueKey(message.id));
  };
  for (const exchange of exchanges) exchange.notifications.forEach(add);
  for (const stray of strays) if (stray.kind === 'server-request') add(stray.data);
  return ids;
}

export const cancelOnlyListen: CheckDefinition = defineCheck({
  id: 'cancel.server.no-other',
  covers: ['cancel.server-ref-listen'],
  title:
    'A notifications/cancelled from the server references only what it may cancel: a subscriptions/listen ' +
    'stream (2026-07-28), a request of its own (initialize revisions)',
  area: 'cancellation',
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/patterns/cancellation',
        text: 'Servers MUST NOT send notifications/cancelled for any other purpose.',
        keyword: 'MUST NOT',
      },
      {
        ref: 'basic/patterns/cancellation#behavior-requirements',
        text:
          'Server-sent cancellation notifications MUST reference a subscriptions/listen request, to terminate ' +
          'that subscription stream',
        keyword: 'MUST',
      },
    ],
    '2025-11-25': [SAME_DIRECTION],
    '2025-06-18': [SAME_DIRECTION],
    '2025-03-26': [SAME_DIRECTION],
    '2024-11-05': [SAME_DIRECTION],
  },
  phase: 'final',
  run(ctx) {
    const exchanges = ctx.exchanges();
    const strays = ctx.strays();
    const stateless = !isInitializeRevision(ctx.revision);
    const allowed = stateless
      ? new Set(exchanges.filter(isListen).map((e) => valueKey((e.request as { id?: unknown }).id)))
      : serverRequestIds(exchanges, strays);
    const what = stateless ? 'a subscriptions/listen request' : 'a request the server had sent the client';
    const seen = notificationsSeen(exchanges, strays, 'notifications/cancelled');
    const other = seen.filter((s) => !allowed.has(valueKey(s.params.requestId)));
    if (other.length === 0) return [pass(`${seen.length} notifications/cancelled from the server, each for ${what}`)];
    return [
      fail(
        `the server sent notifications/cancelled for request id ${JSON.stringify(other[0]!.params.requestId)}, ` +
          `which is not ${what}${stateless ? '' : ` (it sent ${allowed.size} request(s) of its own)`}`,
        stateless
          ? 'notifications/cancelled from the server only to end a subscriptions/listen stream, referencing that ' +
              'request'
          : 'notifications/cancelled from the server only for a request the server itself issued (never for one ' +
              "of the client's requests)",
        other.slice(0, 3).flatMap((s) => seenEvidence(s).slice(0, 1)),
      ),
    ];
  },
});

const NO_RESPONSE: SpecSentence = {
  ref: 'basic/index#notifications',
  text: 'The receiver MUST NOT send a response.',
  keyword: 'MUST NOT',
};
const EARLIER_RACES: SpecSentence = {
  ref: 'basic/utilities/cancellation#timing-considerations',
  text: 'Both parties MUST handle these race conditions gracefully:',
  keyword: 'MUST',
};
const EARLIER_IGNORE_INVALID: SpecSentence = {
  ref: 'basic/utilities/cancellation#error-handling',
  text: 'Invalid cancellation notifications SHOULD be ignored:',
  keyword: 'SHOULD',
};
/** JSON-RPC 2.0 §4.1: "The Server MUST NOT reply to a Notification", which every revision's "MUST follow" takes in. */
const JSON_RPC_NO_REPLY = 'JSON-RPC 2.0: "The Server MUST NOT reply to a Notification"';

/** A request of ours already answered, which a cancellation may name: never initialize, nor a listen stream. */
const raceCandidate = (e: Exchange) =>
  isObject(e.response) && isObject(e.request) && 'id' in e.request && e.request.method !== 'initialize' && !isListen(e);

/**
 * Cancellations a server can only ignore: for a request it answered long ago (the race the cancellation page
 * describes, made certain), for an id it never saw, and without any requestId. Never one for `initialize`: "The
 * initialize request MUST NOT be cancelled by clients".
 */
export function cancellationsToIgnore(exchanges: readonly Exchange[]): Record<string, unknown>[] {
  const answered = exchanges.find(raceCandidate);
  const answeredId = answered ? (answered.request as { id: unknown }).id : undefined;
  return [
    ...(answeredId !== undefined
      ? [{ requestId: answeredId, reason: 'conformance probe: a request already answered' }]
      : []),
    { requestId: 'mcp-tools-conformance-never-sent', reason: 'conformance probe: an id never sent' },
    { reason: 'conformance probe without a requestId' },
  ];
}

/**
 * Responses that can only answer the notifications sent since `since`: a null or missing id (a notification has none),
 * or the id one of them cancelled. A late answer to another request is some other check's business.
 */
export function answersToNotifications(
  strays: readonly StrayEvent[],
  since: string,
  cancelledIds: ReadonlySet<string>,
): StrayEvent[] {
  return strays.filter((s) => {
    if (s.at < since || !isObject(s.data) || 'method' in s.data || !('result' in s.data || 'error' in s.data))
      return false;
    return !('id' in s.data) || s.data.id === null || cancelledIds.has(valueKey(s.data.id));
  });
}

export const notificationsUnanswered: CheckDefinition = defineCheck({
  id: 'base.notif.no-response',
  covers: ['cancel.invalid-ignored', 'cancel.race'],
  title:
    'Notifications get no response, even cancellations a server can only ignore (for a request already ' +
    'answered, an unknown id, no requestId)',
  area: 'cancellation',
  sentences: {
    '2026-07-28': [
      NO_RESPONSE,
      {
        ref: 'basic/patterns/cancellation#timing-considerations',
        text: 'Both parties MUST handle these race conditions gracefully:',
        keyword: 'MUST',
      },
      {
        ref: 'basic/patterns/cancellation#error-handling',
        text: 'Invalid cancellation notifications SHOULD be ignored:',
        keyword: 'SHOULD',
      },
    ],
    '2025-11-25': [NO_RESPONSE, EARLIER_RACES, EARLIER_IGNORE_INVALID],
    '2025-06-18': [NO_RESPONSE, EARLIER_RACES, EARLIER_IGNORE_INVALID],
    '2025-03-26': [NO_RESPONSE, EARLIER_RACES, EARLIER_IGNORE_INVALID],
    // 2024-11-05's own words only describe ("They do not expect a response."); the rule is JSON-RPC 2.0's, which it
    // requires.
    '2024-11-05': [
      {
        ref: 'basic/messages',
        text: 'All messages in MCP MUST follow the JSON-RPC 2.0 specification.',
        keyword: 'MUST',
      },
      { ref: 'basic/messages#notifications', text: 'They do not expect a response.', keyword: 'descriptive' },
      EARLIER_RACES,
      EARLIER_IGNORE_INVALID,
    ],
  },
  needs: ['stdio'],
  phase: 'serial',
  prepare(ctx) {
    if (ctx.overlaps) ctx.prepareConnection(LISTING_ONLY);
  },
  preparesOnlyOverlapping: true,
  async run(ctx) {
    const own = await windowConnection(ctx);
    const channel: NotificationChannel = own
      ? {
          exchanges: () => own.exchanges,
          strays: () => own.transport.strays(),
          notify: (method, params) => own.notify(method, params),
          request: (method) => own.request(method),
        }
      : {
          exchanges: () => ctx.exchanges(),
          strays: () => ctx.strays(),
          notify: (method, params) => ctx.client.notify(method, params),
          request: (method) => ctx.client.request(method),
        };
    // On the initialize wire a connection may have had only initialize answered, which is never cancelled: a ping
    // gives the race probe a request already answered.
    if (isInitializeRevision(ctx.revision) && !channel.exchanges().some(raceCandidate)) await channel.request('ping');
    const since = new Date().toISOString();
    const probes = cancellationsToIgnore(channel.exchanges());
    const sent: Exchange[] = [];
    for (const params of probes) sent.push(await channel.notify('notifications/cancelled', params));
    const verdict = sleep(NOTIFICATION_WATCH_MS).then(() => judgeAnswersToNotifications(channel, since, probes, sent));
    // Alone on its own connection, the window needs no turn of the audit's: the other checks go on meanwhile.
    return own ? pending(verdict) : verdict;
  },
});

/** Where base.notif.no-response sends its notifications and watches for answers to them. */
interface NotificationChannel {
  exchanges(): readonly Exchange[];
  strays(): readonly StrayEvent[];
  notify(method: string, params: Record<string, unknown>): Promise<Exchange>;
  request(method: string): Promise<Exchange>;
}

/**
 * While checks overlap, the listing-only connection, on which nothing else is in flight between the main phase's walk
 * and the final phase's (answers to the notifications cannot be taken for another request's); else, or when it cannot
 * be opened, none: the window is then kept in turn on the audit's connection, in the serial phase.
 */
async function windowConnection(ctx: CheckContext): Promise<McpClient | undefined> {
  if (!ctx.overlaps || !ctx.canOpenConnections) return undefined;
  return ctx.sharedConnection(LISTING_ONLY).catch(() => undefined);
}

function judgeAnswersToNotifications(
  channel: NotificationChannel,
  since: string,
  probes: readonly Record<string, unknown>[],
  sent: Exchange[],
): Outcome[] {
  const answers = answersToNotifications(
    channel.strays(),
    since,
    new Set(probes.filter((p) => 'requestId' in p).map((p) => valueKey(p.requestId))),
  );
  if (answers.length === 0) {
    const kinds = probes
      .map((p) => ('requestId' in p ? String(p.reason).replace('conformance probe: ', '') : 'no requestId'))
      .join(', ');
    return [
      pass(
        `${sent.length} notifications/cancelled the server could only ignore (${kinds}) got no response within ` +
          `${NOTIFICATION_WATCH_MS} ms (a response with a null or missing id, or a cancelled id)`,
        sent,
      ),
    ];
  }
  return [
    fail(
      `the server answered a notification (${sent.length} notifications/cancelled it could only ignore were ` +
        `sent): ${JSON.stringify(answers[0]!.data).slice(0, 200)}`,
      `no response to any notification (${JSON_RPC_NO_REPLY}); a cancellation for a request already answered, ` +
        `or an invalid one, is ignored`,
      [...sent, ...answers.slice(0, 3).map((a) => note('response to a notification', a.data))],
    ),
  ];
}

export const CANCELLATION_CHECKS: readonly CheckDefinition[] = [
  cancelSilence,
  cancelOnlyListen,
  notificationsUnanswered,
];
