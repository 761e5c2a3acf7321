import { setTimeout as sleep } from 'node:timers/promises';
import { isObject, type JsonRpcId } from '../../src/jsonrpc.js';
import type { CheckDefinition } from '../../src/runner/types.js';
import type { SpecSentence } from '../../src/model/check.js';
import { MODERN, WIRES } from '../../src/model/wire.js';
import type { Exchange, StrayEvent } from '../../src/model/exchange.js';
import { isListen, notificationsSeen, seenEvidence, valueKey } from '../kit/notifications-seen.js';
import { fail, note, pass, skip } from '../kit/outcome.js';

/** Answers already on their way when our notifications/cancelled left are not held against the server. */
export const CANCEL_GRACE_MS = 1000;
/** How long after a cancellation the audit keeps listening for an answer to it. */
const CANCEL_WATCH_MS = 3000;
/** How long the serial probe listens for answers to the notifications it sent. */
const NOTIFICATION_WATCH_MS = 100;

const STDIO_SILENCE: SpecSentence = {
  ref: 'basic/transports/stdio#cancellation',
  text: 'Servers SHOULD stop work on a cancelled request as soon as practical and MUST NOT send any further messages for it.',
  keyword: 'MUST NOT',
};
const LEGACY_CEASE: SpecSentence = {
  ref: 'schema.json#/$defs/CancelledNotification/description',
  text: 'This notification indicates that the result will be unused, so any associated processing SHOULD cease.',
  keyword: 'SHOULD',
};

interface Cancellation {
  notice: Exchange;
  requestId: JsonRpcId;
  at: number;
}

/**
 * The notifications/cancelled the audit sent for requests still in flight (calls that outlived --timeout), oldest
 * first; not the ones base.notif.no-response sends for requests long answered or never sent.
 */
export function cancellationsSent(exchanges: readonly Exchange[]): Cancellation[] {
  const timedOut = new Set(exchanges.filter((e) => e.failure?.kind === 'timeout' && isObject(e.request)).map((e) => valueKey((e.request as { id?: unknown }).id)));
  return exchanges.flatMap((notice) => {
    const message = isObject(notice.request) ? notice.request : {};
    const params = isObject(message.params) ? message.params : {};
    if (message.method !== 'notifications/cancelled' || 'id' in message) return [];
    const requestId = params.requestId;
    if ((typeof requestId !== 'string' && typeof requestId !== 'number') || !timedOut.has(valueKey(requestId))) return [];
    return [{ notice, requestId, at: Date.parse(notice.sentAt) }];
  });
}

/** Answers to a cancelled request that arrived later than the grace window after the cancellation left. */
export function answersAfterCancel(cancellations: readonly Cancellation[], strays: readonly StrayEvent[]): { cancel: Cancellation; stray: StrayEvent }[] {
  return cancellations.flatMap((cancel) =>
    strays
      .filter((s) => s.kind === 'unknown-id' && isObject(s.data) && valueKey(s.data.id) === valueKey(cancel.requestId))
      .filter((s) => Date.parse(s.at) > cancel.at + CANCEL_GRACE_MS)
      .map((stray) => ({ cancel, stray })),
  );
}

export const cancelSilence: CheckDefinition = {
  id: 'stdio.cancel.server-silence',
  covers: ['cancel.server.should-stop'],
  keyword: 'MUST NOT',
  title: 'After notifications/cancelled for a call, the server sends nothing more for it (no late answer)',
  specRef: 'basic/transports/stdio#cancellation',
  area: 'cancellation',
  wires: WIRES,
  sentences: { '2026-07-28': [STDIO_SILENCE], '2025-11-25': [LEGACY_CEASE] },
  needs: ['stdio'],
  phase: 'final',
  async run(ctx) {
    const cancellations = cancellationsSent(ctx.exchanges());
    if (cancellations.length === 0) return [skip('no request was cancelled in this audit (it cancels only tool calls that outlive --timeout)')];
    const watchUntil = Math.max(...cancellations.map((c) => c.at)) + CANCEL_WATCH_MS;
    if (watchUntil > Date.now()) await sleep(watchUntil - Date.now());
    const late = answersAfterCancel(cancellations, ctx.strays());
    if (late.length === 0) {
      return [pass(`${cancellations.length} cancelled request(s): no answer came later than ${CANCEL_GRACE_MS} ms after the cancellation (watched for ${CANCEL_WATCH_MS} ms)`)];
    }
    const first = late[0]!;
    const afterMs = Date.parse(first.stray.at) - first.cancel.at;
    const cancelled = ctx.exchanges().find((e) => isObject(e.request) && valueKey(e.request.id) === valueKey(first.cancel.requestId));
    return [
      fail(
        `the request with id ${JSON.stringify(first.cancel.requestId)} was answered ${afterMs} ms after our notifications/cancelled for it`,
        `nothing more for a cancelled request once the cancellation has arrived (answers within ${CANCEL_GRACE_MS} ms of it are taken as already on their way)`,
        [...(cancelled ? [cancelled] : []), first.cancel.notice, note('the late answer', first.stray.data)],
      ),
    ];
  },
};

export const cancelOnlyListen: CheckDefinition = {
  id: 'cancel.server.no-other',
  covers: ['cancel.server-ref-listen'],
  keyword: 'MUST NOT',
  title: 'A notifications/cancelled from the server only ever ends a subscriptions/listen stream',
  specRef: 'basic/patterns/cancellation',
  area: 'cancellation',
  wires: MODERN,
  sentences: {
    '2026-07-28': [
      { ref: 'basic/patterns/cancellation', text: 'Servers MUST NOT send notifications/cancelled for any other purpose.', keyword: 'MUST NOT' },
      {
        ref: 'basic/patterns/cancellation#behavior-requirements',
        text: 'Server-sent cancellation notifications MUST reference a subscriptions/listen request, to terminate that subscription stream',
        keyword: 'MUST',
      },
    ],
  },
  phase: 'final',
  run(ctx) {
    const exchanges = ctx.exchanges();
    const listenIds = new Set(exchanges.filter(isListen).map((e) => valueKey((e.request as { id?: unknown }).id)));
    const seen = notificationsSeen(exchanges, ctx.strays(), 'notifications/cancelled');
    const other = seen.filter((s) => !listenIds.has(valueKey(s.params.requestId)));
    if (other.length === 0) return [pass(`${seen.length} notifications/cancelled from the server, each for a subscriptions/listen request`)];
    return [
      fail(
        `the server sent notifications/cancelled for request id ${JSON.stringify(other[0]!.params.requestId)}, which is not a subscriptions/listen request`,
        'notifications/cancelled from the server only to end a subscriptions/listen stream, referencing that request',
        other.slice(0, 3).flatMap((s) => seenEvidence(s).slice(0, 1)),
      ),
    ];
  },
};

const NO_RESPONSE: SpecSentence = { ref: 'basic/index#notifications', text: 'The receiver MUST NOT send a response.', keyword: 'MUST NOT' };

/**
 * Cancellations a server can only ignore: for a request it answered long ago (the race the cancellation page
 * describes, made certain), for an id it never saw, and without any requestId.
 */
function cancellationsToIgnore(exchanges: readonly Exchange[]): Record<string, unknown>[] {
  const answered = exchanges.find((e) => isObject(e.response) && isObject(e.request) && 'id' in e.request && !isListen(e));
  const answeredId = answered ? (answered.request as { id: unknown }).id : undefined;
  return [
    ...(answeredId !== undefined ? [{ requestId: answeredId, reason: 'conformance probe: a request already answered' }] : []),
    { requestId: 'mcp-tools-conformance-never-sent', reason: 'conformance probe: an id never sent' },
    { reason: 'conformance probe without a requestId' },
  ];
}

/**
 * Responses that can only answer the notifications sent since `since`: a null or missing id (a notification has none),
 * or the id one of them cancelled. A late answer to another request is some other check's business.
 */
export function answersToNotifications(strays: readonly StrayEvent[], since: string, cancelledIds: ReadonlySet<string>): StrayEvent[] {
  return strays.filter((s) => {
    if (s.at < since || !isObject(s.data) || 'method' in s.data || !('result' in s.data || 'error' in s.data)) return false;
    return !('id' in s.data) || s.data.id === null || cancelledIds.has(valueKey(s.data.id));
  });
}

export const notificationsUnanswered: CheckDefinition = {
  id: 'base.notif.no-response',
  covers: ['cancel.invalid-ignored', 'cancel.race'],
  keyword: 'MUST NOT',
  title: 'Notifications get no response, even cancellations a server can only ignore (for a request already answered, an unknown id, no requestId)',
  specRef: 'basic/index#notifications',
  area: 'cancellation',
  wires: WIRES,
  sentences: {
    '2026-07-28': [
      NO_RESPONSE,
      { ref: 'basic/patterns/cancellation#timing-considerations', text: 'Both parties MUST handle these race conditions gracefully:', keyword: 'MUST' },
      { ref: 'basic/patterns/cancellation#error-handling', text: 'Invalid cancellation notifications SHOULD be ignored:', keyword: 'SHOULD' },
    ],
    '2025-11-25': [NO_RESPONSE],
  },
  needs: ['stdio'],
  phase: 'serial',
  async run(ctx) {
    const since = new Date().toISOString();
    const sent: Exchange[] = [];
    const probes = cancellationsToIgnore(ctx.exchanges());
    for (const params of probes) sent.push(await ctx.client.notify('notifications/cancelled', params));
    await sleep(NOTIFICATION_WATCH_MS);
    const answers = answersToNotifications(ctx.strays(), since, new Set(probes.filter((p) => 'requestId' in p).map((p) => valueKey(p.requestId))));
    if (answers.length === 0) {
      return [pass(`${sent.length} notifications/cancelled the server could only ignore (a request already answered, an id never sent, no requestId) got no response within ${NOTIFICATION_WATCH_MS} ms (a response with a null or missing id, or a cancelled id)`, sent)];
    }
    return [
      fail(
        `the server answered a notification (${sent.length} notifications/cancelled it could only ignore were sent): ${JSON.stringify(answers[0]!.data).slice(0, 200)}`,
        'no response to any notification; a cancellation for a request already answered, or an invalid one, is ignored',
        [...sent, ...answers.slice(0, 3).map((a) => note('response to a notification', a.data))],
      ),
    ];
  },
};

export const CANCELLATION_CHECKS: readonly CheckDefinition[] = [cancelSilence, cancelOnlyListen, notificationsUnanswered];
