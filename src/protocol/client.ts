import { errorOf, isObject, resultOf, type JsonRpcId } from '../core/jsonrpc.js';
import { ToolPages } from './tool-pages.js';
import { CallTurns } from './call-turns.js';
import {
  compareRevisions,
  isInitializeRevision,
  LATEST_INITIALIZE_REVISION,
  LATEST_REVISION,
  type Revision,
} from '../core/revision.js';
import { encodeHeaderValue } from '../transport/header-encoding.js';
import { paramHeaders } from '../transport/param-headers.js';
import type { ListenStream, ServerRequestAnswer, Transport } from '../transport/types.js';
import type { Exchange } from '../model/exchange.js';
import { NAME_HEADER_SOURCE } from './constants.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../core/meta-keys.js';
import { ALWAYS_GONE_FAILURES, GONE_FAILURES, TargetGoneError } from './errors.js';
import { lateAnswer } from '../transport/late-answers.js';
import { answerServerRequest, MAX_SERVER_REQUESTS_ANSWERED } from './server-requests.js';

export interface ClientInfo {
  name: string;
  version: string;
}

export interface RequestOptions {
  /** Client capabilities declared in this request's `_meta` (default `{}`). */
  capabilities?: Record<string, unknown>;
  /** Replace the whole `_meta` (for probes that break it on purpose); `null` omits it. */
  meta?: Record<string, unknown> | null;
  /** Keys added to the usual `_meta` (a progressToken, a log level); on an initialize revision they make up `_meta`. */
  extraMeta?: Record<string, unknown>;
  /** Header overrides for HTTP probes; a `null` value removes that header. */
  headers?: Record<string, string | null>;
  timeoutMs?: number;
  /** Return failed exchanges instead of declaring the target gone (the era probe tolerates silence). */
  probe?: boolean;
  /** Any connection of the client will do (HTTP --http-connections); by default the first one. */
  anyConnection?: boolean;
  /** This id instead of the next number (probes of how ids are echoed); the caller keeps it unique. */
  id?: JsonRpcId;
  /** tools/call: in a turn of its own, with no other call in flight (a retry of a call that timed out among others). */
  alone?: boolean;
}

/** A request sent and not yet answered: its method, the tool it calls, and since when (performance.now()). */
export interface InFlight {
  method: string;
  tool?: string;
  since: number;
}

function inFlightOf(message: unknown): InFlight {
  const request = isObject(message) ? message : {};
  const params = isObject(request.params) ? request.params : {};
  return {
    method: typeof request.method === 'string' ? request.method : '(response)',
    ...(request.method === 'tools/call' && typeof params.name === 'string' ? { tool: params.name } : {}),
    since: performance.now(),
  };
}

/**
 * The stateless protocol client. Every request goes through here so that ids stay unique, `_meta` and the
 * HTTP mirror headers are always right, and every exchange is recorded as evidence.
 */
export class McpClient {
  wire: Revision | null = null;
  /** Initialize revisions: the version the server agreed in `initialize`, and the HTTP session it minted. */
  initializeVersion: string | undefined;
  sessionId: string | undefined;
  readonly exchanges: Exchange[] = [];
  readonly toolsCalled = new Map<string, number>();
  /** Input schemas by tool name, so a `tools/call` over HTTP can mirror `x-mcp-header` arguments. */
  private readonly inputSchemas = new Map<string, unknown>();
  private nextId = 1;
  private gone: TargetGoneError | undefined;
  /** Requests sent and not yet answered (or failed), for progress lines: what the audit is waiting on. */
  private readonly waiting = new Map<number, InFlight>();
  private waitingSeq = 0;
  private serverRequestsAnswered = 0;
  /**
   * The last request of the server left unanswered, why, and when (ms since epoch): named when a request of ours sent
   * before it then times out.
   */
  private lastUnanswered: { request: Record<string, unknown>; why: string; at: number } | undefined;

  constructor(
    readonly transport: Transport,
    readonly clientInfo: ClientInfo,
    /**
     * tools/list pages received on this audit's connections (tool-walk.ts shares repeated ones); pass the audit's own
     * to another connection.
     */
    readonly toolPages = new ToolPages(),
    /** Whose turn it is to call a tool, shared by every connection of the audit: pass the audit's own to another. */
    readonly turns = new CallTurns(),
  ) {
    transport.answerServerRequests?.((request) => this.answerServerRequest(request));
  }

  /**
   * A request the server sent us. On the `initialize` wire it is answered (server-requests.ts), up to
   * MAX_SERVER_REQUESTS_ANSWERED per connection. On 2026-07-28 it is not: servers MUST NOT initiate requests, and
   * clients do not send responses (patterns.server-no-requests reports it).
   */
  private answerServerRequest(request: Record<string, unknown>): ServerRequestAnswer | undefined {
    const { id, method } = request;
    const why =
      this.wire === null || !isInitializeRevision(this.wire)
        ? `a ${LATEST_REVISION} client sends no responses (basic/patterns: "Servers MUST NOT initiate JSON-RPC ` +
          `requests, and clients do not send JSON-RPC responses.")`
        : typeof method !== 'string' || !(typeof id === 'string' || Number.isInteger(id))
          ? 'it is not a valid JSON-RPC request (a string method and a string or integer id), so it was left unanswered'
          : this.serverRequestsAnswered >= MAX_SERVER_REQUESTS_ANSWERED
            ? `it was left unanswered: the audit answers at most ${MAX_SERVER_REQUESTS_ANSWERED} requests of the ` +
              `server per connection`
            : undefined;
    if (why !== undefined) {
      this.lastUnanswered = { request, why, at: Date.now() };
      return undefined;
    }
    this.serverRequestsAnswered += 1;
    return {
      response: answerServerRequest(id as JsonRpcId, method as string),
      headers: this.headersFor(this.wire!, method as string, {}, undefined),
    };
  }

  /**
   * HTTP, `initialize` wire: opens the GET stream on which the server may send requests of its own (answered like the
   * others), and waits until it is open: a request the server sends on behalf of our next one must find it there.
   */
  async openServerStream(): Promise<void> {
    await this.transport.openServerStream?.(
      this.headersFor(this.wire ?? LATEST_INITIALIZE_REVISION, 'GET', {}, undefined),
    );
  }

  /**
   * HTTP, `initialize` wire: the GET that openServerStream sent, with the status and headers it got so far (no body).
   */
  serverStreamAnswer(): Exchange | undefined {
    return this.transport.serverStreamAnswer?.();
  }

  /**
   * Streamable HTTP: the POSTs of our answers to the server's requests (not in `exchanges`: the transport sends them
   * itself).
   */
  answerPosts(): readonly Exchange[] {
    return this.transport.answerPosts?.() ?? [];
  }

  /** Learns the tools of a listing: their `x-mcp-header` arguments are mirrored into headers from then on. */
  learnTools(tools: readonly Record<string, unknown>[]): void {
    this.turns.learn(tools);
    for (const tool of tools)
      if (typeof tool.name === 'string' && isObject(tool.inputSchema))
        this.inputSchemas.set(tool.name, tool.inputSchema);
  }

  get isGone(): boolean {
    return this.gone !== undefined;
  }

  get goneError(): TargetGoneError | undefined {
    return this.gone;
  }

  newId(): JsonRpcId {
    return this.nextId++;
  }

  /** A well-formed request on the current wire. Throws TargetGoneError when the target stopped answering. */
  async request(method: string, params: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<Exchange> {
    const { message, id, headers } = this.build(method, params, options);
    const send = () => this.send(message, id, headers, options.timeoutMs, options.probe, true, options.anyConnection);
    if (method !== 'tools/call') return send();
    if (typeof params.name === 'string')
      this.toolsCalled.set(params.name, (this.toolsCalled.get(params.name) ?? 0) + 1);
    return this.turns.take(params.name, params.arguments, send, options.alone || undefined);
  }

  /**
   * Opens `subscriptions/listen` with this filter. The stream's exchange is recorded at once and keeps growing until
   * it is closed; the caller closes it. Undefined when the transport has no long-lived requests (snapshots).
   */
  async listen(filter: Record<string, unknown>, options: RequestOptions = {}): Promise<ListenStream | undefined> {
    if (this.gone) throw this.gone;
    if (!this.transport.listen) return undefined;
    const { message, id, headers } = this.build('subscriptions/listen', { notifications: filter }, options);
    const stream = await this.transport.listen(message, id, { headers, timeoutMs: options.timeoutMs });
    this.exchanges.push(stream.exchange);
    return stream;
  }

  private build(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
  ): { message: Record<string, unknown>; id: JsonRpcId; headers: Record<string, string> } {
    const wire = this.wire ?? LATEST_REVISION;
    const id = options.id ?? this.newId();
    const body: Record<string, unknown> = { ...params };
    if (wire === LATEST_REVISION && options.meta !== null) {
      body._meta = options.meta ?? { ...this.statelessMeta(options.capabilities), ...options.extraMeta };
    } else if (isInitializeRevision(wire) && options.extraMeta) {
      body._meta = { ...options.extraMeta };
    }
    const message =
      isInitializeRevision(wire) && Object.keys(body).length === 0
        ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params: body };
    return { message, id, headers: this.headersFor(wire, method, params, options.headers) };
  }

  /**
   * Send a message exactly as given (probes with broken envelopes, JSON-RPC batches). Headers are the caller's
   * business. Without an id no response is awaited (a notification, or a batch of them); with one, the response
   * carrying it (or a batch of responses holding it).
   */
  async raw(
    message: unknown,
    id: JsonRpcId | undefined,
    headers: Record<string, string> = {},
    timeoutMs?: number,
  ): Promise<Exchange> {
    return this.send(message, id, headers, timeoutMs);
  }

  /** HTTP only: a GET or DELETE to the endpoint, recorded like any exchange; undefined when the transport cannot. */
  async probeMethod(method: 'GET' | 'DELETE', headers: Record<string, string> = {}): Promise<Exchange | undefined> {
    if (!this.transport.probeMethod) return undefined;
    if (this.gone) throw this.gone;
    return this.judge(await this.transport.probeMethod(method, headers), true);
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<Exchange> {
    const message = params ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', method };
    const wire = this.wire ?? LATEST_REVISION;
    const exchange = await this.transport.send(message, undefined, {
      notification: true,
      headers: this.headersFor(wire, method, params ?? {}, undefined),
    });
    this.exchanges.push(exchange);
    return exchange;
  }

  /** The `_meta` every request of 2026-07-28 carries: protocol version, client info and client capabilities. */
  statelessMeta(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      [META_PROTOCOL_VERSION]: LATEST_REVISION,
      [META_CLIENT_INFO]: { name: this.clientInfo.name, version: this.clientInfo.version },
      [META_CLIENT_CAPABILITIES]: capabilities,
    };
  }

  headersFor(
    wire: Revision,
    method: string,
    params: Record<string, unknown>,
    overrides: Record<string, string | null> | undefined,
  ): Record<string, string> {
    if (this.transport.kind !== 'http') return {};
    const headers: Record<string, string> = {};
    if (wire === LATEST_REVISION) {
      headers['MCP-Protocol-Version'] = LATEST_REVISION;
      headers['Mcp-Method'] = method;
      const source = NAME_HEADER_SOURCE[method];
      const value = source ? params[source] : undefined;
      if (typeof value === 'string') headers['Mcp-Name'] = encodeHeaderValue(value);
      if (method === 'tools/call' && typeof params.name === 'string' && this.inputSchemas.has(params.name)) {
        Object.assign(headers, paramHeaders(this.inputSchemas.get(params.name), params.arguments));
      }
    } else {
      // Streamable HTTP of 2025-06-18 on: "the client MUST include the MCP-Protocol-Version: <protocol-version> HTTP
      // header".
      if (this.initializeVersion && compareRevisions(wire, '2025-06-18') >= 0)
        headers['MCP-Protocol-Version'] = this.initializeVersion;
      if (this.sessionId) headers['Mcp-Session-Id'] = this.sessionId;
    }
    for (const [name, value] of Object.entries(overrides ?? {})) {
      for (const existing of Object.keys(headers))
        if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
      if (value !== null) headers[name] = value;
    }
    return headers;
  }

  private async send(
    message: unknown,
    id: JsonRpcId | undefined,
    headers: Record<string, string>,
    timeoutMs?: number,
    probe = false,
    wellFormed = false,
    anyConnection = false,
  ) {
    if (this.gone) throw this.gone;
    const key = this.waitingSeq++;
    this.waiting.set(key, inFlightOf(message));
    try {
      return await this.judge(
        await this.transport.send(message, id, { headers, timeoutMs, anyConnection, notification: id === undefined }),
        probe,
        wellFormed,
      );
    } finally {
      this.waiting.delete(key);
    }
  }

  /**
   * A timeout while the server may wait on a request of its own that we left unanswered says so, and which: the request
   * is returned, and named in the failure's message.
   */
  private nameUnanswered(exchange: Exchange): Record<string, unknown> | undefined {
    const last = this.lastUnanswered;
    if (exchange.failure?.kind !== 'timeout' || !last || last.at < Date.parse(exchange.sentAt)) return undefined;
    const { request, why } = last;
    const method = typeof request.method === 'string' ? request.method.slice(0, 100) : JSON.stringify(request.method);
    exchange.failure.message +=
      `; meanwhile the server sent the request ${method} (id ` +
      `${String(JSON.stringify(request.id)).slice(0, 100)}) and may be waiting for its answer: ${why}`;
    return request;
  }

  /** Requests in flight, oldest first. */
  inFlight(): readonly InFlight[] {
    return [...this.waiting.values()];
  }

  /**
   * Records the exchange; a failure that means the target is gone ends the audit (probes tolerate silence, not an exit
   * or a 429). So does an HTTP 5xx without a JSON-RPC body to a well-formed request: the server broke, nothing to
   * judge.
   */
  private async judge(exchange: Exchange, probe: boolean, wellFormed = false): Promise<Exchange> {
    this.exchanges.push(exchange);
    const unanswered = this.nameUnanswered(exchange);
    const kind = exchange.failure?.kind;
    const serverError = kind === 'http-status' && (exchange.status ?? 0) >= 500 && wellFormed && !probe;
    if (serverError || (kind !== undefined && GONE_FAILURES.has(kind) && !(probe && !ALWAYS_GONE_FAILURES.has(kind)))) {
      // A target that answers after --timeout is slow, not gone: the request stays unanswered for the checks (whose
      // verdicts on it become skips), and the audit goes on.
      if (await lateAnswer(exchange)) return exchange;
      this.gone = new TargetGoneError(exchange, exchange.failure!.message, unanswered);
      throw this.gone;
    }
    return exchange;
  }
}

export { errorOf, isObject, resultOf };
