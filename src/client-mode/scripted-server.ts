import { isObject } from '../core/jsonrpc.js';
import { ERR } from '../protocol/constants.js';
import { META_CLIENT_CAPABILITIES } from '../core/meta-keys.js';
import { LATEST_REVISION } from '../core/revision.js';
import { SLOW_ANSWER_MS } from './slow-answer.js';
import { CHANGE_SETTLE_MS, ToolSetChange, type NotificationSink } from './tool-set-change.js';
import {
  APPEARED_AFTER_CHANGE,
  CONTROL_ERROR_CODE,
  CUT_STREAM_EVENT_IDS,
  FORMER_HEADER_MISMATCH_CODE,
  MRTR_STATE,
  PAGE_TWO_CURSOR,
  STDERR_LOG_LINE,
  TOOL,
  TOOL_SPECS,
  UNKNOWN_RESULT_TYPE,
  type Scenario,
} from './scenarios.js';

export interface ScriptedSetup {
  scenarios: readonly Scenario[];
  /** `http://127.0.0.1:PORT` of the canary that `$ref`s name. */
  canaryOrigin: string;
  /** Epoch milliseconds the audit's clock counts from (every stdio server process the client starts shares it). */
  timeOrigin: number;
  version: string;
}

/** An answer: a JSON-RPC message (or none, for a notification) and how HTTP carries it. */
export interface Answer {
  body?: unknown;
  status: number;
  /** HTTP: send the body as an SSE stream (with a comment line first). */
  sse?: boolean;
  /**
   * HTTP: the SSE stream sends these events (each with its `id:` field; empty data for a priming event) and ends
   * without the body. Over stdio, which has no streams to cut, the body is sent.
   */
  cutShort?: { id: string; data: string }[];
  /** Answer this much later: a request the client sends meanwhile finds this one in flight. */
  delayMs?: number;
  /**
   * slow_answer: an answer due after `delayMs`, over HTTP on an SSE stream opened at once (which the client may close
   * to cancel); meanwhile progress for `progressToken`, when the request asked for progress.
   */
  slow?: { progressToken?: string | number };
  /** stdio: a line to write to stderr first (logging, which a client must not take for an error). */
  stderr?: string;
  /** `subscriptions/listen`: the front keeps a stream open for it and hands its sink to `listenOpened`. */
  listen?: { id: unknown; notifications: unknown };
}

/** How late `echo` is answered (the first call of a driver that calls in listing order). */
export const ECHO_DELAY_MS = 100;

const complete = (text: string, extra: Record<string, unknown> = {}) => ({
  resultType: 'complete',
  content: [{ type: 'text', text }],
  ...extra,
});

/**
 * The scripted 2026-07-28 server: discover, a paginated tools/list of the selected scenarios' tools, and their calls.
 * It answers requests that break a rule all the same (it observes; the checks judge), so one defect of the client
 * does not hide the others.
 */
export class ScriptedServer {
  readonly tools: Record<string, unknown>[];
  private readonly pages: Record<string, unknown>[][];
  private readonly change: ToolSetChange;
  private walkTtlMs = 0;
  private mismatchAnswered = false;

  constructor(private readonly setup: ScriptedSetup) {
    this.change = new ToolSetChange(setup.scenarios.includes('listen'));
    const chosen = TOOL_SPECS.filter((s) => setup.scenarios.includes(s.scenario));
    const withPage = chosen.map((s) => ({
      page: s.page ?? 1,
      tool: s.definition({ canaryOrigin: setup.canaryOrigin }),
    }));
    this.tools = withPage.map((t) => t.tool);
    this.pages = [1, 2, 3]
      .map((p) => withPage.filter((t) => t.page === p).map((t) => t.tool))
      .filter((p, i) => i === 0 || p.length > 0);
  }

  handle(message: unknown): Answer {
    if (Array.isArray(message)) {
      const answers = message.map((m) => this.handle(m)).filter((a) => a.body !== undefined);
      return answers.length === 0 ? { status: 202 } : { status: 200, body: answers.map((a) => a.body) };
    }
    if (!isObject(message) || typeof message.method !== 'string') return { status: 202 };
    if (!('id' in message)) return { status: 202 };
    const id = message.id;
    const params = isObject(message.params) ? message.params : {};
    const result = (value: unknown, sse = false): Answer => ({
      status: 200,
      body: { jsonrpc: '2.0', id, result: value },
      ...(sse ? { sse } : {}),
    });
    const error = (status: number, code: number, text: string, data?: unknown): Answer => ({
      status,
      body: { jsonrpc: '2.0', id, error: { code, message: text, ...(data === undefined ? {} : { data }) } },
    });
    switch (message.method) {
      case 'server/discover':
        return result({
          resultType: 'complete',
          supportedVersions: [LATEST_REVISION],
          capabilities: { tools: { listChanged: this.setup.scenarios.includes('listen') } },
          ttlMs: 0,
          cacheScope: 'public',
          _meta: {
            'io.modelcontextprotocol/serverInfo': {
              name: 'mcp-tools-conformance-scripted-server',
              version: this.setup.version,
            },
          },
        });
      case 'tools/list':
        return result(this.page(params.cursor));
      case 'subscriptions/listen':
        return { status: 200, listen: { id, notifications: params.notifications } };
      case 'tools/call':
        return this.call(params, result, error);
      default:
        return error(404, ERR.methodNotFound, `method not found: ${message.method}`);
    }
  }

  /** A listen stream opened (its acknowledgment, to send first), and closed. */
  listenOpened(id: unknown, notifications: unknown, sink: NotificationSink): Record<string, unknown> {
    return this.change.opened(id, notifications, sink);
  }

  listenClosed(id: unknown): void {
    this.change.closed(id);
  }

  /** The page a cursor asks for; an unknown cursor gets the second page, so that a client that mangles it goes on. */
  private page(cursor: unknown): Record<string, unknown> {
    if (cursor === undefined) this.walkTtlMs = this.change.walkTtlMs();
    const index = cursor === undefined ? 0 : cursor === '' ? 2 : 1;
    const page = Math.min(index, this.pages.length - 1);
    const next = page + 1 < this.pages.length ? (page === 0 ? PAGE_TWO_CURSOR : '') : undefined;
    const tools = page === 0 && this.change.changed ? [...this.pages[0]!, APPEARED_AFTER_CHANGE] : this.pages[page];
    return {
      resultType: 'complete',
      tools,
      ttlMs: this.walkTtlMs,
      cacheScope: 'public',
      ...(next === undefined ? {} : { nextCursor: next }),
    };
  }

  private call(
    params: Record<string, unknown>,
    result: (value: unknown, sse?: boolean) => Answer,
    error: (status: number, code: number, text: string) => Answer,
  ): Answer {
    const name = params.name;
    if (typeof name !== 'string' || !this.tools.some((t) => t.name === name))
      return error(200, ERR.invalidParams, `unknown tool: ${String(name)}`);
    if (name === this.pages.at(-1)?.at(-1)?.name && this.change.lastToolCalled()) {
      const answer = this.answerCall(name, params, result, error);
      return { ...answer, delayMs: Math.max(answer.delayMs ?? 0, CHANGE_SETTLE_MS) };
    }
    return this.answerCall(name, params, result, error);
  }

  private answerCall(
    name: string,
    params: Record<string, unknown>,
    result: (value: unknown, sse?: boolean) => Answer,
    error: (status: number, code: number, text: string) => Answer,
  ): Answer {
    switch (name) {
      case TOOL.echo:
        return {
          ...result(complete(`echo: ${JSON.stringify(params.arguments ?? {})}`)),
          delayMs: ECHO_DELAY_MS,
          stderr: STDERR_LOG_LINE,
        };
      case TOOL.sseEcho:
        return result(complete(`echo: ${JSON.stringify(params.arguments ?? {})}`), true);
      case TOOL.mrtrStateOnly:
        return result(
          params.requestState === undefined
            ? { resultType: 'input_required', requestState: MRTR_STATE.stateOnly }
            : complete('done after one retry'),
        );
      case TOOL.mrtrAsk:
        return result(askRound(params));
      case TOOL.resultUnknownType:
        return result({
          resultType: UNKNOWN_RESULT_TYPE,
          content: [{ type: 'text', text: 'a result of an unknown type' }],
        });
      case TOOL.sseCutShort:
        return {
          ...result(complete('over stdio there is no stream to cut short'), true),
          cutShort: cutShortEvents(params),
        };
      case TOOL.formerHeaderMismatchCode:
        return error(400, FORMER_HEADER_MISMATCH_CODE, HEADER_MISMATCH_TEXT);
      case TOOL.controlErrorCode:
        return error(400, CONTROL_ERROR_CODE, HEADER_MISMATCH_TEXT);
      case TOOL.structuredMismatch:
        return result(complete('{"temperature":"warm"}', { structuredContent: { temperature: 'warm' } }));
      case TOOL.refNetwork:
      case TOOL.dialectUnknown:
        return result(complete('{"answer":"x"}', { structuredContent: { answer: 'x' } }));
      case TOOL.mismatchOnce:
        if (this.mismatchAnswered) return result(complete('answered on the retry after HeaderMismatch'));
        this.mismatchAnswered = true;
        return error(
          400,
          ERR.headerMismatch,
          "Header mismatch: the Mcp-Param-Region header does not match the tool's current inputSchema; list " +
            'the tools again',
        );
      case TOOL.slowAnswer:
        return {
          ...result(complete('the answer, long after the call timeout of the driver contract'), true),
          delayMs: SLOW_ANSWER_MS,
          slow: progressTokenOf(params),
        };
      case TOOL.dialectDefault:
        return result(complete('{"pair":["a","b"]}', { structuredContent: { pair: ['a', 'b'] } }));
      default:
        return result(complete(`called ${name} with ${JSON.stringify(params.arguments ?? {})}`));
    }
  }
}

/** The progress token a request asked for, if any. */
function progressTokenOf(params: Record<string, unknown>): { progressToken?: string | number } {
  const token = isObject(params._meta) ? params._meta.progressToken : undefined;
  return typeof token === 'string' || typeof token === 'number' ? { progressToken: token } : {};
}

/**
 * The message of both legacy-range errors: only their codes differ, so only the code can set a client's recovery off.
 */
const HEADER_MISMATCH_TEXT = 'Header mismatch: Mcp-Param-Region does not match the body';

/**
 * sse_cut_short's events before the cut: a priming event (an id and empty data, as 2025-11-25 servers send to let a
 * client resume), then a progress notification when the request asked for progress.
 */
function cutShortEvents(params: Record<string, unknown>): { id: string; data: string }[] {
  const token = isObject(params._meta) ? params._meta.progressToken : undefined;
  const [priming, progress] = CUT_STREAM_EVENT_IDS;
  const events: { id: string; data: string }[] = [{ id: priming, data: '' }];
  if (typeof token === 'string' || typeof token === 'number') {
    events.push({
      id: progress,
      data: JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, message: 'the rest of this stream is lost' },
      }),
    });
  }
  return events;
}

/** The input requests this client can be asked for: only through a capability its request declares. */
function inputRequest(
  params: Record<string, unknown>,
  message: string,
  field: string,
): Record<string, unknown> | undefined {
  const meta = isObject(params._meta) ? params._meta : {};
  const capabilities = isObject(meta[META_CLIENT_CAPABILITIES]) ? meta[META_CLIENT_CAPABILITIES] : {};
  if (isObject(capabilities.elicitation)) {
    return {
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message,
        requestedSchema: {
          type: 'object',
          properties: { [field]: { type: 'boolean', default: true } },
          required: [field],
        },
      },
    };
  }
  if (isObject(capabilities.roots)) return { method: 'roots/list', params: {} };
  return undefined;
}

/**
 * mrtr_ask: round 1 asks for `confirm` and `consent` with a requestState; round 2 (`confirm` answered or a state
 * echoed) asks for `detail` without one; round 3 (answering `detail`) completes. A client that declares no capability
 * gets a plain result.
 */
function askRound(params: Record<string, unknown>): Record<string, unknown> {
  const first = inputRequest(params, 'Proceed with mrtr_ask?', 'confirm');
  if (!first) return complete('no input request: the request declared neither elicitation nor roots');
  const responses = isObject(params.inputResponses) ? params.inputResponses : {};
  if ('detail' in responses) return complete('done after two rounds of input');
  if ('confirm' in responses || params.requestState !== undefined)
    return {
      resultType: 'input_required',
      inputRequests: { detail: inputRequest(params, 'One more detail?', 'detail') },
    };
  return {
    resultType: 'input_required',
    inputRequests: { confirm: first, consent: inputRequest(params, 'Consent to mrtr_ask?', 'consent') },
    requestState: MRTR_STATE.ask,
  };
}
