import {
  CALL_TIMEOUT_MS,
  type ClientCheckContext,
  type ClientCheckDefinition,
  evidenceOf,
  isObject,
  type SeenMessage,
  type SeenRequest,
  SLOW_ANSWER_MS,
  SLOW_PROGRESS_EVERY_MS,
  TOOL,
} from '../kit/index.js';
import { clientCheck, describeRequest, fail, note, pass, sameId, sentence, skip } from './kit.js';

const TIMEOUTS = 'basic/patterns/cancellation#timeouts';
const SLOW = TOOL.slowAnswer;

/** The notifications/cancelled messages the client sent, with what carried them. */
function cancellations(ctx: ClientCheckContext): { seen: SeenMessage; requestId: unknown; hasId: boolean }[] {
  return ctx.observed.messages.flatMap((seen) =>
    (Array.isArray(seen.message) ? seen.message : [seen.message]).flatMap((m) =>
      isObject(m) && m.method === 'notifications/cancelled'
        ? [
            {
              seen,
              requestId: isObject(m.params) ? m.params.requestId : undefined,
              hasId: isObject(m.params) && 'requestId' in m.params,
            },
          ]
        : [],
    ),
  );
}

/** Over stdio each server process is a connection of its own; over HTTP every POST reaches the one endpoint. */
const sameSender = (a: SeenMessage, b: SeenMessage) => a.transport === 'http' || a.connection === b.connection;

/** The first call of slow_answer and the driver's line for it, or why the check cannot judge. */
function slowCall(ctx: ClientCheckContext): { call: SeenRequest; gaveUp: boolean } | string {
  const call = ctx.calls(SLOW)[0];
  if (!call) return `the client did not call ${SLOW}`;
  const line = ctx.line(SLOW);
  if (!line) return `the driver printed no line for ${SLOW}`;
  return { call, gaveUp: line.outcome === 'error' };
}

const askedForProgress = (call: SeenRequest) =>
  isObject(call.params._meta) && call.params._meta.progressToken !== undefined;

export const CLIENT_TIMEOUTS = clientCheck({
  id: 'tools.sec.client-timeouts',
  covers: ['cancel.timeouts', 'cancel.max-timeout'],
  title: 'A tool call slower than the call timeout of the driver contract is given up',
  area: 'cancellation',
  scenario: 'timeout',
  sentences: [
    sentence('server/tools#security-considerations', 'Clients SHOULD: … Implement timeouts for tool calls', 'SHOULD'),
    sentence(
      TIMEOUTS,
      'Implementations SHOULD establish timeouts for all sent requests, to prevent hung connections and ' +
        'resource exhaustion.',
      'SHOULD',
    ),
    sentence(
      TIMEOUTS,
      'However, implementations SHOULD always enforce a maximum timeout, regardless of progress notifications, ' +
        'to limit the impact of a misbehaving client or server.',
      'SHOULD',
    ),
  ],
  run(ctx) {
    const found = slowCall(ctx);
    if (typeof found === 'string') return [skip(found)];
    const { call, gaveUp } = found;
    const progress = askedForProgress(call)
      ? `, although progress came every ${SLOW_PROGRESS_EVERY_MS} ms meanwhile`
      : '';
    const evidence = [evidenceOf(call.seen), note(`what the driver printed for ${SLOW}`, ctx.line(SLOW))];
    if (gaveUp)
      return [
        pass(
          `the client gave up on ${SLOW} before its answer, due ${SLOW_ANSWER_MS} ms after the call${progress}`,
          evidence,
        ),
      ];
    return [
      fail(
        `the client waited for the answer to ${describeRequest(call)}, which came ${SLOW_ANSWER_MS} ms after ` +
          `the call, ${SLOW_ANSWER_MS - CALL_TIMEOUT_MS} ms past the call timeout of the driver contract (` +
          `${CALL_TIMEOUT_MS} ms)` +
          `${
            askedForProgress(call)
              ? `; progress every ${SLOW_PROGRESS_EVERY_MS} ms meanwhile kept no maximum ` + `timeout from firing`
              : ''
          }`,
        `the call given up within the driver contract's ${CALL_TIMEOUT_MS} ms (the driver prints an error for ` +
          `it), whatever progress arrives`,
        evidence,
      ),
    ];
  },
});

export const TIMEOUT_CANCEL = clientCheck({
  id: 'cancel.timeout-cancel',
  covers: ['cancel.client.should'],
  title: 'A call given up is cancelled: notifications/cancelled on stdio, the response stream closed on HTTP',
  area: 'cancellation',
  scenario: 'timeout',
  sentences: [
    sentence(
      TIMEOUTS,
      'When the request has not received a success or error response within the timeout period, the sender ' +
        'SHOULD cancel the request and stop waiting for a response.',
      'SHOULD',
    ),
    sentence(
      'basic/patterns/cancellation',
      'A client SHOULD send a cancellation notification to indicate that a request it previously issued should ' +
        'be terminated.',
      'SHOULD',
    ),
    sentence(
      TIMEOUTS,
      'Streamable HTTP: closing the response stream for the request, which constitutes cancellation.',
      'descriptive',
    ),
    sentence(
      TIMEOUTS,
      'stdio: sending a notifications/cancelled notification referencing the request ID.',
      'descriptive',
    ),
  ],
  run(ctx) {
    const found = slowCall(ctx);
    if (typeof found === 'string') return [skip(found)];
    const { call, gaveUp } = found;
    if (!gaveUp)
      return [
        skip(
          `the client waited for the answer to ${SLOW}, so it cancelled nothing (tools.sec.client-timeouts ` +
            `judges the wait)`,
        ),
      ];
    const answered = call.seen.answeredT;
    if (call.seen.transport === 'http') {
      if (call.seen.abandonedT !== undefined)
        return [
          pass(
            `the client closed the response stream of ${describeRequest(call)} ` +
              `${Math.round(call.seen.abandonedT - call.seen.t)} ms after the call, before its answer`,
            [evidenceOf(call.seen)],
          ),
        ];
      return [
        fail(
          `the driver reported ${SLOW} failed, but the client kept its response stream open until the answer ` +
            `came ${Math.round((answered ?? call.seen.t) - call.seen.t)} ms after the call`,
          'the SSE response stream closed when the client stops waiting: on Streamable HTTP that is the cancellation',
          [evidenceOf(call.seen)],
        ),
      ];
    }
    const cancel = cancellations(ctx).find(
      (c) => sameSender(c.seen, call.seen) && c.seen.seq > call.seen.seq && sameId(c.requestId, call.id),
    );
    if (cancel)
      return [
        pass(
          `the client sent notifications/cancelled for ${describeRequest(call)} ` +
            `${Math.round(cancel.seen.t - call.seen.t)} ms after the call`,
          [evidenceOf(call.seen), evidenceOf(cancel.seen)],
        ),
      ];
    return [
      fail(
        `the driver reported ${SLOW} failed, but the client sent no notifications/cancelled referencing ` +
          `${describeRequest(call)}: the server cannot tell the request was given up`,
        `{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": ` +
          `${JSON.stringify(call.id)}}} once the client stops waiting`,
        [evidenceOf(call.seen)],
      ),
    ];
  },
});

export const CANCEL_REFERENCES_ISSUED = clientCheck({
  id: 'cancel.ref-valid',
  title: 'notifications/cancelled references only a request the client issued',
  area: 'cancellation',
  scenario: 'meta',
  sentences: [
    sentence(
      'basic/patterns/cancellation#behavior-requirements',
      'Cancellation notifications MUST only reference requests that: … Were previously issued by the client',
      'MUST',
    ),
  ],
  // "Are believed to still be in-progress" is not judged: an answer may cross the cancellation (a race the page
  // allows).
  run(ctx) {
    const cancels = cancellations(ctx);
    if (cancels.length === 0) return [skip('the client sent no notifications/cancelled')];
    // Any connection counts: a stdio client that restarted its server may cancel a request it issued to the one before.
    const bad = cancels.filter((c) => !ctx.requests.some((r) => r.seen.seq < c.seen.seq && sameId(r.id, c.requestId)));
    if (bad.length === 0)
      return [pass(`each of ${cancels.length} notifications/cancelled references a request the client had issued`)];
    return [
      fail(
        `${bad.length} of ${cancels.length} notifications/cancelled reference no request the client had issued ` +
          `(first: requestId ${bad[0]!.hasId ? JSON.stringify(bad[0]!.requestId) : 'absent'}, message #` +
          `${bad[0]!.seen.seq})`,
        'a requestId equal to the id of a request the client sent earlier',
        bad.slice(0, 5).map((c) => evidenceOf(c.seen)),
      ),
    ];
  },
});

export const TIMEOUT_CHECKS: readonly ClientCheckDefinition[] = [
  CLIENT_TIMEOUTS,
  TIMEOUT_CANCEL,
  CANCEL_REFERENCES_ISSUED,
];
