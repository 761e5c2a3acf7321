import {
  type ClientCheckDefinition,
  evidenceOf,
  isObject,
  INITIALIZE_REVISIONS,
  type SeenMessage,
  STDERR_LOG_LINE,
  TOOL,
} from '../kit/index.js';
import { onRevisions, perRevision, STREAMABLE_HTTP_SESSION_REVISIONS } from '../kit/same-sentences.js';
import {
  clientCheck,
  describeRequest,
  fail,
  judgeDriverLine,
  judgeRequests,
  pass,
  reusedWhileInFlight,
  sentence,
  skip,
} from './kit.js';

const REQUESTS = 'basic/index#requests';

export const ID_TYPE = clientCheck({
  id: 'base.req.id-type',
  covers: ['base.req.id-not-null'],
  title: 'Request ids are strings or integers, never null',
  area: 'wire',
  scenario: 'meta',
  sentences: [
    sentence(REQUESTS, 'Requests MUST include a string or integer ID.', 'MUST'),
    sentence(REQUESTS, 'Unlike base JSON-RPC, the ID MUST NOT be null.', 'MUST NOT'),
  ],
  earlier: perRevision(INITIALIZE_REVISIONS, (wire) => {
    const ref = wire === '2024-11-05' ? 'basic/messages#requests' : REQUESTS;
    return [
      sentence(ref, 'Requests MUST include a string or integer ID.', 'MUST'),
      sentence(ref, 'Unlike base JSON-RPC, the ID MUST NOT be null.', 'MUST NOT'),
    ];
  }),
  run(ctx) {
    const offenders = ctx.requests.flatMap((request) =>
      typeof request.id === 'string' || Number.isInteger(request.id)
        ? []
        : [{ request, problem: `${describeRequest(request)} has id ${JSON.stringify(request.id)}` }],
    );
    return judgeRequests(
      ctx.requests.length,
      'the client sent no request',
      offenders,
      `all ${ctx.requests.length} request ids are strings or integers`,
      'a string or an integer id on every request',
    );
  },
});

export const ID_UNIQUE_IN_FLIGHT = clientCheck({
  id: 'base.req.id-unique-inflight',
  title: 'No request reuses the id of a request still waiting for its response',
  area: 'wire',
  scenario: 'meta',
  sentences: [
    sentence(
      REQUESTS,
      'The request ID MUST NOT match the ID of any other request the sender has issued and not yet received a ' +
        'response for.',
      'MUST NOT',
    ),
  ],
  run(ctx) {
    const offenders = reusedWhileInFlight(
      ctx.requests,
      (r) => r,
      (r) => r.id,
    ).map(({ item: request, earlier }) => ({
      request,
      problem:
        `${describeRequest(request)} arrived while ${describeRequest(earlier)}, with the same id, was still ` +
        `unanswered`,
    }));
    return judgeRequests(
      ctx.requests.length,
      'the client sent no request',
      offenders,
      `no id of ${ctx.requests.length} requests was reused while in flight`,
      'an id not used by any request still awaiting its response',
    );
  },
});

export const NOTIFICATION_NO_ID = clientCheck({
  id: 'base.notif.no-id',
  title: 'Notifications carry no id',
  area: 'wire',
  scenario: 'meta',
  sentences: [sentence('basic/index#notifications', 'Notifications MUST NOT include an ID.', 'MUST NOT')],
  earlier: perRevision(INITIALIZE_REVISIONS, (wire) => [
    sentence(
      wire === '2024-11-05' ? 'basic/messages#notifications' : 'basic/index#notifications',
      'Notifications MUST NOT include an ID.',
      'MUST NOT',
    ),
  ]),
  run(ctx) {
    const notifications = ctx.observed.messages.flatMap((seen) =>
      (Array.isArray(seen.message) ? seen.message : [seen.message])
        .filter((m) => isObject(m) && typeof m.method === 'string' && m.method.startsWith('notifications/'))
        .map((m) => ({ seen, message: m as Record<string, unknown> })),
    );
    if (notifications.length === 0)
      return [
        skip(
          'the client sent no notification (2026-07-28 defines none a client sends over Streamable HTTP; over ' +
            'stdio only notifications/cancelled)',
        ),
      ];
    const bad = notifications.filter((n) => 'id' in n.message);
    if (bad.length === 0) return [pass(`none of ${notifications.length} notifications carries an id`)];
    return [
      fail(
        `${bad.length} of ${notifications.length} notifications carry an id (first: ` +
          `${String(bad[0]!.message.method)} with id ${JSON.stringify(bad[0]!.message.id)})`,
        'no "id" member on a notification',
        bad.slice(0, 5).map((n) => evidenceOf(n.seen)),
      ),
    ];
  },
});

export const UTF8 = clientCheck({
  id: 'transport.utf8',
  title: 'What the client sends is valid UTF-8',
  area: 'wire',
  scenario: 'meta',
  sentences: [sentence('basic/transports/index#messages', 'JSON-RPC messages MUST be UTF-8 encoded.', 'MUST')],
  earlier: onRevisions(
    STREAMABLE_HTTP_SESSION_REVISIONS,
    sentence('basic/transports', 'JSON-RPC messages MUST be UTF-8 encoded.', 'MUST'),
  ),
  run(ctx) {
    const messages = ctx.observed.messages.filter((m) => m.http === undefined || m.http.method === 'POST');
    const bad = messages.filter((m) => m.invalidUtf8);
    if (messages.length === 0) return [skip('the client sent no message')];
    if (bad.length === 0) return [pass(`all ${messages.length} messages are valid UTF-8`)];
    return [
      fail(
        `${bad.length} of ${messages.length} messages are not valid UTF-8 (first: message #${bad[0]!.seq})`,
        'UTF-8 bytes only',
        bad.slice(0, 5).map(evidenceOf),
      ),
    ];
  },
});

const isJsonRpcMessage = (m: unknown) =>
  isObject(m) && m.jsonrpc === '2.0' && (typeof m.method === 'string' || 'id' in m);

export const STDIN_CLEAN = clientCheck({
  id: 'stdio.client.stdin-clean',
  title: "Only MCP messages on the server's stdin",
  area: 'wire',
  scenario: 'meta',
  transport: 'stdio',
  sentences: [
    sentence(
      'basic/transports/stdio',
      "The client MUST NOT write anything to the server's stdin that is not a valid MCP message.",
      'MUST NOT',
    ),
  ],
  earlier: onRevisions(
    INITIALIZE_REVISIONS,
    sentence(
      'basic/transports#stdio',
      "The client MUST NOT write anything to the server's stdin that is not a valid MCP message.",
      'MUST NOT',
    ),
  ),
  run(ctx) {
    const lines = ctx.observed.messages;
    const bad = lines.filter(
      (m) => !(Array.isArray(m.message) ? m.message.every(isJsonRpcMessage) : isJsonRpcMessage(m.message)),
    );
    if (lines.length === 0) return [skip('the client wrote nothing to the server')];
    if (bad.length === 0) return [pass(`all ${lines.length} lines are JSON-RPC messages`)];
    return [
      fail(
        `${bad.length} of ${lines.length} lines are not JSON-RPC messages (first: ` +
          `${JSON.stringify((bad[0]!.raw ?? JSON.stringify(bad[0]!.message) ?? '').slice(0, 80))})`,
        'one JSON-RPC 2.0 message per line',
        bad.slice(0, 5).map(evidenceOf),
      ),
    ];
  },
});

const isResponse = (m: unknown) =>
  isObject(m) && 'id' in m && typeof m.method !== 'string' && ('result' in m || 'error' in m);
const responsesIn = (messages: readonly SeenMessage[]) =>
  messages.filter((m) => (Array.isArray(m.message) ? m.message.some(isResponse) : isResponse(m.message)));

function noResponses(id: string, transport: 'http' | 'stdio', ref: string, text: string): ClientCheckDefinition {
  return clientCheck({
    id,
    title: 'The client sends no JSON-RPC responses',
    area: 'wire',
    scenario: 'meta',
    transport,
    sentences: [sentence(ref, text, 'MUST NOT')],
    run(ctx) {
      const messages = ctx.observed.messages.filter((m) => m.message !== undefined);
      const bad = responsesIn(messages);
      if (messages.length === 0)
        return [
          skip(
            ctx.observed.messages.length === 0
              ? 'the client sent no message'
              : 'the client sent nothing that parses as JSON',
          ),
        ];
      if (bad.length === 0) return [pass(`none of ${messages.length} messages is a JSON-RPC response`)];
      return [
        fail(
          `${bad.length} message(s) are JSON-RPC responses (first: message #${bad[0]!.seq})`,
          'requests and notifications only: 2026-07-28 servers send no requests to answer',
          bad.slice(0, 5).map(evidenceOf),
        ),
      ];
    },
  });
}

export const HTTP_NO_RESPONSES = noResponses(
  'http.client.no-responses',
  'http',
  'basic/transports/streamable-http#sending-messages',
  'The client MUST NOT send JSON-RPC _responses_.',
);
export const STDIO_NO_RESPONSES = noResponses(
  'stdio.client.no-responses',
  'stdio',
  'basic/transports/stdio#sending-messages',
  'The client MUST NOT write JSON-RPC _responses_.',
);

export const STDERR_NOT_ERROR = clientCheck({
  id: 'stdio.client.stderr-not-error',
  title: "The server's stderr is not taken for an error",
  area: 'wire',
  scenario: 'meta',
  transport: 'stdio',
  sentences: [
    sentence(
      'basic/transports/stdio',
      "The client MAY capture, forward, or ignore the server's stderr output and SHOULD NOT assume stderr " +
        'output indicates error conditions.',
      'SHOULD NOT',
    ),
  ],
  earlier: onRevisions(
    ['2025-11-25'],
    sentence(
      'basic/transports#stdio',
      "The client MAY capture, forward, or ignore the server's stderr output and SHOULD NOT assume stderr " +
        'output indicates error conditions.',
      'SHOULD NOT',
    ),
  ),
  run: (ctx) =>
    judgeDriverLine(ctx, TOOL.echo, 'result', {
      afterCall: true,
      passed:
        `the ${TOOL.echo} result reached the driver although the server wrote "${STDERR_LOG_LINE}" to stderr ` +
        `while it was in flight`,
      failed:
        `the ${TOOL.echo} call came out as an error after the server wrote "${STDERR_LOG_LINE}" to stderr ` +
        `while it was in flight (its answer was a plain result)`,
      expected: 'the result: stderr is for logging',
    }),
});

export const WIRE_CHECKS: readonly ClientCheckDefinition[] = [
  ID_TYPE,
  ID_UNIQUE_IN_FLIGHT,
  NOTIFICATION_NO_ID,
  UTF8,
  STDIN_CLEAN,
  HTTP_NO_RESPONSES,
  STDIO_NO_RESPONSES,
  STDERR_NOT_ERROR,
];
