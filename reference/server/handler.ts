import { isObject, type JsonRpcId } from '../../src/core/jsonrpc.js';
import type { ActiveDefects } from './defects/active.js';
import type { AnsweredRequest, CallNotifications, MessageRules, OpeningListen } from './defects/seams/handler.js';
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
import { readRequestMeta, type RequestMeta } from './request-meta.js';
import { toolsCallResult } from './tools-call.js';
import { FAILING_TOOL_ERROR } from './scale-tools.js';
import { toolError } from './tool-types.js';
import { serverInfoMeta } from './result-meta.js';
import { toolsListResult } from './tools-list.js';
import { findTool } from './tools.js';
import { acknowledgement, agreedFilter } from './subscriptions.js';

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
  after: OutgoingMessage[];
  response: OutgoingMessage;
  status: number;
}

const METHODS = new Set(['server/discover', 'tools/list', 'tools/call', 'subscriptions/listen']);

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
  if (Array.isArray(message) && ctx.session?.rules.batches && messageRules(ctx.defects).batchesReceived)
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
    return ctx.defects.at.notificationReceived(message.method, message.params, ctx.transport) ?? { kind: 'none' };
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
  const replaced = defects.at.requestReceived(request);
  if (replaced) return replaced;
  const isList = request.method === 'tools/list';
  const ask = isList ? askBeforeListing(ctx) : undefined;
  if (ask) return { kind: 'ask', request: ask, then: () => handleRequest(request, ctx) };

  const answer = answerRequest(request, ctx);
  if (answer.listen) return answer.listen;
  const answered: AnsweredRequest = {
    id: request.id,
    method: request.method,
    transport: ctx.transport,
    firstListing: isList && !ctx.state.answeredToolsList,
    firstListingOfSession: isList && ctx.session !== undefined && !ctx.session.answeredListing,
    before: answer.before,
    response: answer.response,
    after: answer.after,
  };
  defects.at.requestAnswered(answered);
  if (isList) {
    ctx.state.answeredToolsList = true;
    if (ctx.session) ctx.session.answeredListing = true;
  }
  const stream =
    answered.before.length > 0 || (request.method === 'tools/call' && progressTokenOf(request.rawParams) !== undefined);
  const messages = [...answered.before, answered.response, ...answered.after];
  const reply: Reply = { kind: 'send', messages, status: answer.status, stream };
  if (answered.exitCode !== undefined) reply.exitCode = answered.exitCode;
  return reply;
}

/**
 * The request to send the client before answering a tools/list, whose answer the listing waits for (stdio): asked
 * once per session and once per server.
 */
function askBeforeListing({ session, state, defects }: HandlerContext): OutgoingMessage | undefined {
  if (session && !session.askedBeforeListing) {
    const request = defects.at.requestBeforeListing('session');
    if (request) {
      session.askedBeforeListing = true;
      return request;
    }
  }
  if (state.askedBeforeListing) return undefined;
  const request = defects.at.requestBeforeListing('server');
  if (!request) return undefined;
  state.askedBeforeListing = true;
  return request;
}

/** The rules of one incoming message: those of a conforming server, as the active defects leave them. */
function messageRules(defects: ActiveDefects): MessageRules {
  const rules: MessageRules = {
    batchesReceived: true,
    discoverServed: true,
    logLevelChecked: true,
    versionChecked: true,
    toolLookupBeforeHeaders: false,
  };
  defects.at.messageRules(rules);
  return rules;
}

function answerRequest(request: Request, ctx: HandlerContext): Answer {
  try {
    const { result, before, after, listen } = dispatch(request, ctx);
    return {
      before,
      after: after ?? [],
      response: resultResponse(request.id, shaped(request, result, ctx)),
      status: 200,
      listen,
    };
  } catch (error) {
    if (error instanceof ProtocolError) {
      const status = ctx.defects.at.errorStatus(error.code, error.httpStatus) ?? error.httpStatus;
      return { before: [], after: [], response: errorResponse(request.id, error), status };
    }
    ctx.log?.(`internal error handling ${request.method}: ${String(error)}`);
    const internal = new ProtocolError(ErrorCode.InternalError, 'Internal error', 500);
    return { before: [], after: [], response: errorResponse(request.id, internal), status: 500 };
  }
}

/** A result as the session's revision has it (unchanged on 2026-07-28). */
function shaped(request: Request, result: Record<string, unknown>, ctx: HandlerContext): Record<string, unknown> {
  if (!ctx.session) return result;
  const shapedResult = ctx.session.shape(request.method, result);
  ctx.defects.at.sessionResult(request.method, shapedResult, request.params);
  return shapedResult;
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
  const sessionResult = ctx.session?.answer(method, params);
  if (sessionResult) return { result: sessionResult, before: [] };
  if (method === 'initialize' && !ctx.session) {
    const refusal = methodNotFound(
      `initialize is not supported: this server speaks MCP ${PROTOCOL_VERSION} only (no handshake; send ` +
        `server/discover)`,
      { supported: [...SUPPORTED_VERSIONS] },
    );
    throw defects.at.initializeRefusal(refusal) ?? refusal;
  }
  const rules = messageRules(defects);
  if (!METHODS.has(method) || (method === 'server/discover' && !rules.discoverServed)) {
    throw methodNotFound(`Method not found: ${method}`);
  }
  const meta = ctx.session
    ? ctx.session.meta(params)
    : readRequestMeta(defects.at.paramsForMeta(request.rawParams) ?? request.rawParams, !rules.logLevelChecked);
  defects.at.requestMeta(meta, ctx.connection, ctx.state.rememberedCapabilities);
  if (method === 'tools/call' && ctx.session && typeof params.name === 'string' && !ctx.session.serves(params.name))
    throw invalidParams(`Unknown tool: ${params.name}`);
  if (
    method === 'tools/call' &&
    rules.toolLookupBeforeHeaders &&
    typeof params.name === 'string' &&
    !findTool(params.name, ctx.state.betaTools)
  ) {
    throw invalidParams(`Unknown tool: ${params.name}`);
  }
  if (ctx.headers && !ctx.session) validateRequestHeaders(ctx.headers, method, params, meta, defects);
  if (!ctx.session && !SUPPORTED_VERSIONS.includes(meta.protocolVersion) && rules.versionChecked) {
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
        ...notificationsOfCall(meta, defects),
      };
  }
}

function listenReply(
  id: JsonRpcId,
  agreed: ReturnType<typeof agreedFilter>,
  ctx: HandlerContext,
): Reply & { kind: 'listen' } {
  const listen: OpeningListen = {
    id,
    transport: ctx.transport,
    acknowledgement: { subscriptionId: id, notifications: { ...agreed } },
    firstMessages: [],
  };
  ctx.defects.at.listenOpening(listen);
  const asked = agreed.toolsListChanged === true;
  const toolsListChanged = ctx.defects.at.toolsListChangedSent(asked) ?? asked;
  const { acknowledgement: ack, firstMessages } = listen;
  return {
    kind: 'listen',
    ack: ack ? acknowledgement(ack.subscriptionId, ack.notifications) : undefined,
    open: (send) => {
      const close = ctx.state.subscriptions.add(id, toolsListChanged, send);
      for (const message of firstMessages) send(message);
      return close;
    },
  };
}

/** What a tools/call that ran sends with its response: a progress notification when it has a progressToken. */
function notificationsOfCall(
  { progressToken, logLevel }: RequestMeta,
  defects: ActiveDefects,
): { before: OutgoingMessage[]; after: OutgoingMessage[] } {
  const finished = { progressToken, progress: 1, total: 1, message: 'Tool call finished' };
  const notifications: CallNotifications = {
    progressToken,
    logLevel,
    logs: [],
    progress: progressToken === undefined ? [] : [notification('notifications/progress', finished)],
    after: [],
  };
  defects.at.callNotifications(notifications);
  return { before: [...notifications.logs, ...notifications.progress], after: notifications.after };
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

/** A --failing-tools call: a tool execution error, whatever the arguments. */
function failingCallResult(): Record<string, unknown> {
  return { ...toolError(FAILING_TOOL_ERROR), _meta: serverInfoMeta() };
}
