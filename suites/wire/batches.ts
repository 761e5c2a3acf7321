import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  ERR,
  type Exchange,
  isObject,
  type McpClient,
  type Outcome,
  TargetGoneError,
  TargetUnavailableError,
} from '../kit/index.js';
import { fail, note, pass, skip } from '../kit/outcome.js';

/**
 * JSON-RPC batches, a rule of 2025-03-26 only: it added them (changelog: "Added support for JSON-RPC batching") and
 * 2025-06-18 removed them. Both checks send their batch on a connection of their own (over stdio another process of
 * the target), so that a server that cannot read one puts only that connection at risk.
 */

/** The batch of requests: ids no other request of the audit uses, a method every server of tools answers, and ping. */
const REQUESTS = [
  { jsonrpc: '2.0', id: 'mtc-batch-list', method: 'tools/list' },
  { jsonrpc: '2.0', id: 'mtc-batch-ping', method: 'ping' },
] as const;
const IDS: readonly string[] = REQUESTS.map((r) => r.id);

/**
 * The batch of notifications: cancellations of requests never sent, which a receiver "MAY ignore" (the request is
 * unknown).
 */
const NOTIFICATIONS = [1, 2].map((n) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: {
    requestId: `mtc-never-sent-${n}`,
    reason: 'mcp-tools-conformance: a batch of notifications; no such request was sent',
  },
}));

/** How long answers to the rest of the batch are still awaited once the awaited one has come apart from them. */
const STRAGGLERS_MS = 500;

/** Errors that say the request could not be taken as one: the batch was read as an invalid request. */
const UNREAD_CODES: ReadonlySet<number> = new Set([ERR.parse, ERR.invalidRequest]);

type Opened = { client: McpClient } | { outcome: Outcome };

async function ownConnection(ctx: CheckContext): Promise<Opened> {
  try {
    return { client: await ctx.anotherConnection() };
  } catch (error) {
    // Thrown by the separate connection only: the audited one is unaffected, so the run goes on.
    if (error instanceof TargetGoneError || error instanceof TargetUnavailableError) {
      return {
        outcome: { status: 'error', message: `could not open a separate connection for the batch: ${error.message}` },
      };
    }
    throw error;
  }
}

/** Sends `message` as it is; a failure that ends the separate connection still gives back its exchange. */
async function sendRaw(
  client: McpClient,
  ctx: CheckContext,
  message: unknown,
  id: string | undefined,
): Promise<Exchange> {
  try {
    return await client.raw(message, id, client.headersFor(ctx.revision, 'batch', {}, undefined));
  } catch (error) {
    if (error instanceof TargetGoneError) return error.exchange;
    throw error;
  }
}

/** Every JSON-RPC response among these messages, batches taken apart. */
function responsesIn(messages: readonly unknown[]): Record<string, unknown>[] {
  return messages
    .flatMap((m) => (Array.isArray(m) ? m : [m]))
    .filter((m): m is Record<string, unknown> => isObject(m) && 'id' in m && !('method' in m));
}

/** Whether a message answers a request of the batch, or the batch as a whole (an error under id null). */
const answersBatch = (r: Record<string, unknown>): boolean =>
  IDS.includes(r.id as string) || (r.id === null && 'error' in r);

/**
 * What answered the batch: in its exchange (a response, or the messages of its stream), or apart from it among the
 * strays (stdio lines of their own).
 */
function answersIn(
  exchange: Exchange,
  strays: readonly unknown[],
): { answers: Record<string, unknown>[]; apart: unknown[] } {
  const apart = strays.filter((data) => responsesIn([data]).some(answersBatch));
  return { answers: responsesIn([exchange.response, ...exchange.notifications, ...apart]).filter(answersBatch), apart };
}

/** Waits a little for answers that come apart from the awaited one, once some answer has come. */
async function settled(client: McpClient, exchange: Exchange): Promise<unknown[]> {
  const strays = () => client.transport.strays().map((s) => s.data);
  const complete = () => IDS.every((id) => answersIn(exchange, strays()).answers.some((r) => r.id === id));
  const deadline = Date.now() + STRAGGLERS_MS;
  while (answersIn(exchange, strays()).answers.length > 0 && !complete() && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return strays();
}

const describeAnswer = (r: Record<string, unknown>): string =>
  isObject(r.error) ? `error ${String(r.error.code)} (${String(r.error.message).slice(0, 120)})` : 'a result';

const BATCH_EXPECTED =
  `one response per request: ` +
  `${REQUESTS.map((r) => `${r.method} under id "${r.id}"`).join(', ')} (together in one array, as JSON-RPC 2.0 ` +
  `answers a batch)`;

/** The verdict on the batch of requests, from its exchange and what the connection received apart from it. */
export function judgeBatch(exchange: Exchange, strays: readonly unknown[]): Outcome {
  const { answers, apart } = answersIn(exchange, strays);
  const evidence = [
    exchange,
    ...apart.slice(0, 2).map((data) => note('received apart from the batch, on a line of its own', data)),
  ];
  const byId = REQUESTS.map((r) => ({ request: r, answer: answers.find((a) => a.id === r.id) }));
  const unread = byId.filter((b) => isObject(b.answer?.error) && UNREAD_CODES.has(b.answer.error.code as number));
  if (unread.length > 0) {
    return fail(
      `the batch's ${unread.map((b) => `${b.request.method} got ${describeAnswer(b.answer!)}`).join('; ')}: ` +
        `read as an invalid request`,
      BATCH_EXPECTED,
      evidence,
    );
  }
  const missing = byId.filter((b) => b.answer === undefined);
  if (missing.length === 0) {
    return pass(
      `a batch of ${REQUESTS.length} requests was answered request by request: ` +
        `${byId.map((b) => `${b.request.method} got ${describeAnswer(b.answer!)}`).join(', ')}`,
      evidence,
    );
  }
  const whole = answers.find((a) => a.id === null);
  const why = whole
    ? `the batch was answered with one ${describeAnswer(whole)} under id null instead of a response per request`
    : missing.length === REQUESTS.length
      ? `the batch got no response (` +
        `${exchange.failure?.message ?? JSON.stringify(exchange.response ?? null).slice(0, 160)})`
      : `${missing.map((b) => b.request.method).join(' and ')} in the batch got no response`;
  return fail(why, BATCH_EXPECTED, evidence);
}

/** The verdict on the POST of a batch of notifications. */
export function judgeNotificationBatch(exchange: Exchange): Outcome {
  const status = exchange.status;
  if (status === undefined)
    return skip(`the POST of a batch of notifications got no HTTP answer (${exchange.failure?.message ?? 'none'})`);
  if (status >= 400) {
    return skip(
      `the server refused the batch with HTTP ${status}, as a server that cannot accept the input may ("it ` +
        `MUST return an HTTP error status code"); whether it must accept batches is base.batch.receive's to judge`,
    );
  }
  const body = exchange.response !== undefined ? JSON.stringify(exchange.response) : (exchange.rawBody ?? '');
  if (status === 202 && body === '')
    return pass(`a batch of ${NOTIFICATIONS.length} notifications was accepted with 202 and no body`, [exchange]);
  return fail(
    `a batch of ${NOTIFICATIONS.length} notifications was answered HTTP ${status}` +
      `${body === '' ? ' with no body' : ` with the body ${body.slice(0, 160)}`}`,
    'HTTP 202 Accepted with no body (or an HTTP error status, when the server cannot accept the input)',
    [exchange],
  );
}

export const batchesReceived: CheckDefinition = defineCheck({
  id: 'base.batch.receive',
  title: 'A JSON-RPC batch of requests is answered, each request with its own response',
  area: 'wire',
  sentences: {
    '2025-03-26': [
      {
        ref: 'basic/index#batching',
        text: 'MCP implementations MAY support sending JSON-RPC batches, but MUST support receiving JSON-RPC batches.',
        keyword: 'MUST',
      },
    ],
  },
  needs: ['live'],
  async run(ctx) {
    if (!ctx.canOpenConnections)
      return [skip('cannot open a separate connection to this target, and a batch is not sent on the audited one')];
    const opened = await ownConnection(ctx);
    if ('outcome' in opened) return [opened.outcome];
    const exchange = await sendRaw(opened.client, ctx, REQUESTS, IDS[IDS.length - 1]);
    return [judgeBatch(exchange, await settled(opened.client, exchange))];
  },
});

export const notificationBatchAccepted: CheckDefinition = defineCheck({
  id: 'http.batch.notifications-202',
  covers: ['http.notif.202', 'http.notif.reject-status'],
  title: 'A POST whose body is a batch of notifications only is answered 202 Accepted with no body',
  area: 'wire',
  sentences: {
    '2025-03-26': [
      {
        ref: 'basic/transports#sending-messages-to-the-server',
        text:
          'If the input consists solely of (any number of) JSON-RPC _responses_ or _notifications_: If the ' +
          'server accepts the input, the server MUST return HTTP status code 202 Accepted with no body.',
        keyword: 'MUST',
      },
      {
        ref: 'basic/transports#sending-messages-to-the-server',
        text:
          'If the server cannot accept the input, it MUST return an HTTP error status code (e.g., 400 Bad ' +
          'Request).',
        keyword: 'MUST',
      },
    ],
  },
  needs: ['live', 'http'],
  async run(ctx) {
    if (!ctx.canOpenConnections)
      return [skip('cannot open a separate connection to this target, and a batch is not sent on the audited one')];
    const opened = await ownConnection(ctx);
    if ('outcome' in opened) return [opened.outcome];
    return [judgeNotificationBatch(await sendRaw(opened.client, ctx, NOTIFICATIONS, undefined))];
  },
});

export const BATCH_CHECKS = [batchesReceived, notificationBatchAccepted] as const;
