import { isObject, type JsonRpcId } from '../../src/core/jsonrpc.js';
import type { ActiveDefects } from './defects/active.js';
import { ErrorCode, PROTOCOL_VERSION, SUPPORTED_VERSIONS } from './constants.js';
import { discoverResult } from './discover.js';
import { validateRequestHeaders } from './http-headers.js';
import { errorResponse, notification, resultResponse, type OutgoingMessage } from './messages.js';
import {
  ProtocolError,
  invalidParams,
  invalidRequest,
  methodNotFound,
  parseError,
  unsupportedVersion,
} from './protocol-error.js';
import type { HandlerContext, Reply } from './reply.js';
import { fillMissingMeta, readRequestMeta, type RequestMeta } from './request-meta.js';
import { crashesOn } from './search-defects.js';
import { undecodableState } from './confirm-action.js';
import { toolsCallResult } from './tools-call.js';
import { FAILING_TOOL_ERROR } from './scale-tools.js';
import { toolError } from './tool-types.js';
import { serverInfoMeta } from './result-meta.js';
import { toolsListResult } from './tools-list.js';
import { findTool } from './tools.js';
import { SUBSCRIPTION_ID, acknowledgement, agreedFilter } from './subscriptions.js';

interface Request {
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown>;
  /** `params` as sent (possibly absent), for _meta validation. */
  rawParams: unknown;
}

interface Answer {
  /** subscriptions/listen accepted: the stream to open instead of a response. */
  listen?: Reply & { kind: 'listen' };
  /** Messages scoped to the request, sent before the response. */
  before: OutgoingMessage[];
  /** Messages sent after the response (only ever by a defect). */
  after?: OutgoingMessage[];
  response: OutgoingMessage;
  status: number;
}

const METHODS = new Set(['server/discover', 'tools/list', 'tools/call', 'subscriptions/listen']);
const ROOTS_LIST_REQUEST: OutgoingMessage = { jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' };

/** Handles one line / body of text as received. */
export function handleText(text: string, ctx: HandlerContext): Reply {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return sendError(null, parseError('the message is not valid JSON'));
  }
  return handleMessage(message, ctx);
}

/**
 * Handles one parsed JSON-RPC message (or a batch, where the session's revision has them) and says what to send back.
 */
export function handleMessage(message: unknown, ctx: HandlerContext): Reply {
  if (Array.isArray(message) && ctx.session?.rules.batches && !ctx.defects.has('batch-rejected'))
    return handleBatch(message, ctx);
  if (!isObject(message)) {
    return sendError(null, invalidRequest(Array.isArray(message) ? 'batches are not supported' : 'expected an object'));
  }
  if (!('method' in message) && ('result' in message || 'error' in message)) {
    // On 2026-07-28 clients must not send responses; on stdio we ignore them rather than answer an id we never issued.
    // A session of an initialize revision accepts them (HTTP: 202), though this server asks its clients nothing there.
    return ctx.transport === 'stdio' || ctx.session
      ? { kind: 'none' }
      : sendError(null, invalidRequest('clients must not send responses'));
  }
  const id = isValidId(message.id) ? message.id : null;
  if (message.jsonrpc !== '2.0') return sendError(id, invalidRequest('"jsonrpc" must be "2.0"'));
  if (typeof message.method !== 'string') return sendError(id, invalidRequest('"method" must be a string'));
  if (message.params !== undefined && !isObject(message.params) && !Array.isArray(message.params)) {
    return sendError(id, invalidRequest('"params" must be an object'));
  }
  if (!('id' in message)) {
    if (message.method === 'notifications/cancelled' && isObject(message.params))
      ctx.state.subscriptions.cancel(message.params.requestId);
    const withoutRequestId = !isObject(message.params) || message.params.requestId === undefined;
    if (
      message.method === 'notifications/cancelled' &&
      withoutRequestId &&
      ctx.defects.has('answer-notification') &&
      ctx.transport === 'stdio'
    ) {
      const complaint = {
        jsonrpc: '2.0',
        error: { code: ErrorCode.InvalidParams, message: 'Invalid params: no such request to cancel' },
      };
      return { kind: 'send', messages: [complaint], status: 400, stream: false };
    }
    return { kind: 'none' };
  }
  if (id === null) return sendError(null, invalidRequest('"id" must be a string or an integer'));
  const params = isObject(message.params) ? message.params : {};
  return handleRequest({ id, method: message.method, params, rawParams: message.params }, ctx);
}

/**
 * A JSON-RPC batch (2025-03-26): each message handled in order, the responses sent back together as one array. An
 * empty batch, or an element that is no object, is an invalid request; so is initialize, which "MUST NOT be part of a
 * JSON-RPC batch" (basic/lifecycle). Replies that wait or stream (only ever a 2026-07-28 method or a defect) are not
 * batched: they answer nothing.
 */
function handleBatch(batch: readonly unknown[], ctx: HandlerContext): Reply {
  if (batch.length === 0) return sendError(null, invalidRequest('the batch is empty'));
  const before: OutgoingMessage[] = [];
  const responses: OutgoingMessage[] = [];
  for (const message of batch) {
    const reply = !isObject(message)
      ? sendError(null, invalidRequest('a batch holds requests and notifications, each an object'))
      : message.method === 'initialize'
        ? sendError(isValidId(message.id) ? message.id : null, invalidRequest('initialize must not be part of a batch'))
        : handleMessage(message, ctx);
    if (reply.kind !== 'send') continue;
    for (const sent of reply.messages) (isResponse(sent) ? responses : before).push(sent);
  }
  return { kind: 'batch', before, responses };
}

function isResponse(message: OutgoingMessage): boolean {
  return !('method' in message) && ('result' in message || 'error' in message);
}

function handleRequest(request: Request, ctx: HandlerContext): Reply {
  const { defects } = ctx;
  const isList = request.method === 'tools/list';
  if (isList && defects.has('hang-on-list')) return { kind: 'hang' };
  if (
    request.method === 'tools/call' &&
    defects.has('hang-get-time') &&
    isObject(request.params) &&
    request.params.name === 'get_time'
  )
    return { kind: 'hang' };
  if (
    request.method === 'tools/call' &&
    defects.has('request-state-tamper-hang') &&
    undecodableState(request.params.requestState)
  )
    return { kind: 'hang' };
  if (isList && defects.has('garbage-on-list')) return { kind: 'raw', text: 'this is not json' };
  if (crashesOn(request.method, request.params, defects))
    return { kind: 'send', messages: [], status: 500, stream: false, exitCode: 70 };
  const ask = isList ? (ctx.session?.requestBeforeListing(defects) ?? rootsBeforeListing(ctx)) : undefined;
  if (ask) return { kind: 'ask', request: ask, then: () => handleRequest(request, ctx) };

  const answer = answerRequest(request, ctx);
  if (answer.listen) return answer.listen;
  if (defects.has('error-id-null') && request.method === 'tools/call' && 'error' in answer.response)
    answer.response.id = null;
  if (defects.has('digit-string-id-as-number') && typeof request.id === 'string' && /^\d{1,15}$/.test(request.id))
    answer.response.id = Number(request.id);
  const messages = [...answer.before, answer.response, ...(answer.after ?? [])];
  let stream = messages.length > 1;
  if (isList) {
    if (defects.has('bad-jsonrpc-version')) answer.response.jsonrpc = '1.0';
    if (defects.has('wrong-id-on-list')) answer.response.id = differentId(request.id);
    if (defects.has('list-changed-on-list-stream') && ctx.transport === 'http') {
      messages.unshift(notification('notifications/tools/list_changed', {}));
      stream = true;
    }
    if (defects.has('server-request') && !ctx.state.answeredToolsList) {
      messages.unshift(ROOTS_LIST_REQUEST);
      stream = true;
    }
    const repeated = ctx.session?.repeatedIdPings(defects);
    if (repeated) {
      messages.unshift(...repeated);
      stream = true;
    }
    ctx.state.answeredToolsList = true;
  }
  if (request.method === 'tools/call' && progressTokenOf(request.rawParams) !== undefined) stream = true;
  if (request.method === 'tools/call' && defects.has('cancel-call-notification') && ctx.transport === 'stdio') {
    messages.push(notification('notifications/cancelled', { requestId: request.id, reason: 'call finished' }));
  }
  const reply: Reply = { kind: 'send', messages, status: answer.status, stream };
  if (request.method === 'server/discover' && defects.has('exit-after-discover')) reply.exitCode = 1;
  return reply;
}

/** The server-request-waits defect: the request the first tools/list waits on (stdio only). */
function rootsBeforeListing(ctx: HandlerContext): OutgoingMessage | undefined {
  if (!ctx.defects.has('server-request-waits') || ctx.state.askedBeforeListing) return undefined;
  ctx.state.askedBeforeListing = true;
  return ROOTS_LIST_REQUEST;
}

function answerRequest(request: Request, ctx: HandlerContext): Answer {
  try {
    const { result, before, after, listen } = dispatch(request, ctx);
    return {
      before,
      after,
      response: resultResponse(
        request.id,
        ctx.session ? ctx.session.shape(request.method, result, ctx.defects) : result,
      ),
      status: 200,
      listen,
    };
  } catch (error) {
    if (error instanceof ProtocolError) {
      return { before: [], response: errorResponse(request.id, error), status: httpStatusOf(error, ctx.defects) };
    }
    ctx.log?.(`internal error handling ${request.method}: ${String(error)}`);
    const internal = new ProtocolError(ErrorCode.InternalError, 'Internal error', 500);
    return { before: [], response: errorResponse(request.id, internal), status: 500 };
  }
}

function dispatch(
  request: Request,
  ctx: HandlerContext,
): {
  result: Record<string, unknown>;
  before: OutgoingMessage[];
  after?: OutgoingMessage[];
  listen?: Reply & { kind: 'listen' };
} {
  const { method, params } = request;
  const { defects } = ctx;
  const sessionResult = ctx.session?.answer(method, params, defects);
  if (sessionResult) return { result: sessionResult, before: [] };
  if (method === 'initialize' && !ctx.session) {
    if (defects.has('initialize-error-unnamed')) throw methodNotFound('Method not found: initialize');
    throw methodNotFound(
      `initialize is not supported: this server speaks MCP ${PROTOCOL_VERSION} only (no handshake; send ` +
        `server/discover)`,
      { supported: [...SUPPORTED_VERSIONS] },
    );
  }
  if (!METHODS.has(method) || (method === 'server/discover' && defects.has('no-discover'))) {
    throw methodNotFound(`Method not found: ${method}`);
  }
  const meta = ctx.session
    ? ctx.session.meta(params)
    : readRequestMeta(
        defects.has('meta-not-required') ? fillMissingMeta(request.rawParams) : request.rawParams,
        defects.has('log-level-unchecked'),
      );
  if (defects.has('capabilities-remembered')) {
    meta.clientCapabilities = { ...ctx.state.rememberedCapabilities.get(ctx.connection), ...meta.clientCapabilities };
    ctx.state.rememberedCapabilities.set(ctx.connection, meta.clientCapabilities);
  }
  if (method === 'tools/call' && ctx.session && typeof params.name === 'string' && !ctx.session.serves(params.name))
    throw invalidParams(`Unknown tool: ${params.name}`);
  if (
    method === 'tools/call' &&
    defects.has('tool-lookup-before-headers') &&
    typeof params.name === 'string' &&
    !findTool(params.name, ctx.state.betaTools)
  ) {
    throw invalidParams(`Unknown tool: ${params.name}`);
  }
  if (ctx.headers && !ctx.session) validateRequestHeaders(ctx.headers, method, params, meta, defects);
  if (!ctx.session && !SUPPORTED_VERSIONS.includes(meta.protocolVersion) && !defects.has('version-not-checked')) {
    throw unsupportedVersion(meta.protocolVersion);
  }

  switch (method) {
    case 'server/discover':
      return { result: discoverResult(defects), before: [] };
    case 'tools/list':
      ctx.state.toolsListRequests += 1;
      return { result: toolsListResult(params, ctx), before: [] };
    case 'subscriptions/listen':
      return { result: {}, before: [], listen: listenReply(request.id, agreedFilter(params), ctx) };
    default:
      if (typeof params.name === 'string' && ctx.scale?.failing?.has(params.name))
        return { result: failingCallResult(), before: [] };
      defects.at.toolsCallDispatched(ctx.state.callers, ctx.connection);
      return {
        result: toolsCallResult(params, meta, ctx.state, ctx.defects, ctx.connection),
        before: [...logMessagesFor(meta, defects), ...progressFor(meta, defects)],
        after: progressAfterResponse(meta, defects),
      };
  }
}

function listenReply(
  id: JsonRpcId,
  agreed: ReturnType<typeof agreedFilter>,
  ctx: HandlerContext,
): Reply & { kind: 'listen' } {
  const ack = ctx.defects.has('listen-no-ack') ? undefined : acknowledgement(id, agreed, ctx.defects);
  return {
    kind: 'listen',
    ack,
    open: (send) => {
      const close = ctx.state.subscriptions.add(id, agreed, send);
      if (ctx.defects.has('log-on-listen') && ctx.transport === 'http') {
        const tag = { [SUBSCRIPTION_ID]: id };
        send(
          notification('notifications/message', {
            level: 'info',
            logger: 'subscriptions',
            data: 'listen stream opened',
            _meta: tag,
          }),
        );
      }
      return close;
    },
  };
}

/** The error's HTTP status, except under the defects that send it with 200. */
function httpStatusOf(error: ProtocolError, defects: ActiveDefects): number {
  const sentWith200 =
    (error.code === ErrorCode.InvalidParams && defects.has('meta-missing-200')) ||
    (error.code === ErrorCode.UnsupportedProtocolVersion && defects.has('version-error-200')) ||
    (error.code === ErrorCode.MethodNotFound && defects.has('unknown-method-200'));
  return sentWith200 ? 200 : error.httpStatus;
}

function progressFor(meta: RequestMeta, defects: ActiveDefects): OutgoingMessage[] {
  if (meta.progressToken === undefined) return [];
  const token = progressTokenSent(meta.progressToken, defects);
  const finished = notification('notifications/progress', {
    progressToken: token,
    progress: 1,
    total: 1,
    message: 'Tool call finished',
  });
  if (!defects.has('progress-not-increasing')) return [finished];
  return [
    notification('notifications/progress', { progressToken: token, progress: 1, message: 'Tool call started' }),
    finished,
  ];
}

/** The progress-token-as-number defect refers to a token of digits by the number they spell. */
function progressTokenSent(token: string | number, defects: ActiveDefects): string | number {
  return defects.has('progress-token-as-number') && typeof token === 'string' && /^\d{1,15}$/.test(token)
    ? Number(token)
    : token;
}

function progressAfterResponse(meta: RequestMeta, defects: ActiveDefects): OutgoingMessage[] {
  if (meta.progressToken === undefined || !defects.has('progress-after-response')) return [];
  return [
    notification('notifications/progress', {
      progressToken: meta.progressToken,
      progress: 2,
      total: 2,
      message: 'Cleaning up',
    }),
  ];
}

/** This server logs nothing of its own; the logging defects make it send what a careless one would. */
function logMessagesFor(meta: RequestMeta, defects: ActiveDefects): OutgoingMessage[] {
  const messages: OutgoingMessage[] = [];
  if (defects.has('log-without-level'))
    messages.push(
      notification('notifications/message', { level: 'error', logger: 'tools', data: 'tool call received' }),
    );
  if (defects.has('log-without-capability') && meta.logLevel !== undefined) {
    messages.push(
      notification('notifications/message', { level: meta.logLevel, logger: 'tools', data: 'tool call finished' }),
    );
  }
  if (defects.has('log-below-level') && meta.logLevel !== undefined) {
    messages.push(
      notification('notifications/message', { level: 'debug', logger: 'tools', data: { step: 'arguments parsed' } }),
    );
  }
  return messages;
}

function progressTokenOf(params: unknown): unknown {
  return isObject(params) && isObject(params._meta) ? params._meta.progressToken : undefined;
}

function sendError(id: JsonRpcId | null, error: ProtocolError): Reply {
  return { kind: 'send', messages: [errorResponse(id, error)], status: error.httpStatus, stream: false };
}

function isValidId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

function differentId(id: JsonRpcId): JsonRpcId {
  return typeof id === 'number' ? id + 1_000_000 : `${id}-not-yours`;
}

/** A --failing-tools call: a tool execution error, whatever the arguments. */
function failingCallResult(): Record<string, unknown> {
  return { ...toolError(FAILING_TOOL_ERROR), _meta: serverInfoMeta() };
}
