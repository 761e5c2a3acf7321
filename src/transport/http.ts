import { callOf, lateGraceMs, watchLate, type LateAnswer } from './late-answers.js';
import type { Dispatcher } from 'undici';
import { isObject, isServerRequest } from '../core/jsonrpc.js';
import type { JsonRpcId } from '../core/jsonrpc.js';
import { recordNotification, StrayLog } from './evidence-caps.js';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH, tooDeepMessage } from './json-depth.js';
import { ListenState } from './listen-stream.js';
import { HttpSseTransport } from './http-sse.js';
import { RequestGate } from './request-gate.js';
import { DEFAULT_MAX_MESSAGE_BYTES, nextSeq } from './sequence.js';
import { SseParser } from './sse.js';
import { decodeUtf8 } from './utf8.js';
import type { SseEvent } from './sse.js';
import {
  describeUrl,
  failureFromError,
  mediaType,
  originPool,
  outgoingHeaders,
  parseTargetUrl,
  recordedRequestHeaders,
  recordedResponseHeaders,
  ResponseTooLargeError,
  sentHeaders,
  truncate,
  type HttpTargetOptions,
  type OutgoingHeader,
  type Pool,
} from './http-common.js';
import {
  TargetUnavailableError,
  type ListenStream,
  type SendOptions,
  type ServerRequestAnswer,
  type ServerRequestResponder,
  type Transport,
} from './types.js';
import type { Exchange, StrayEvent, TransportFailure } from '../model/exchange.js';

/**
 * What an HTTP target is reached with (HttpTargetOptions, shared with HTTP+SSE), and: `connections` are the kept-alive
 * connections of this client (--http-connections; default 1 here, --concurrency from the command line); only requests
 * sent with `anyConnection` (tool calls) are spread over them, everything else stays on the first.
 */
export interface HttpTransportOptions extends HttpTargetOptions {
  /** The POST connections of the deprecated HTTP+SSE transport, when the target turns out to speak it (default 1). */
  httpSseConnections?: number;
}

/** How long opening the GET stream of the `initialize` wire may hold the handshake up. */
const SERVER_STREAM_WAIT_MS = 2000;
/** How many POSTs of our answers to the server's requests are kept as exchanges. */
const MAX_ANSWER_POSTS_KEPT = 50;
/** The longest Retry-After an audit waits out; a longer one ends the audit with the reason. */
const MAX_RETRY_AFTER_MS = 30_000;

export class HttpTransport implements Transport {
  readonly description: string;
  private readonly maxMessageBytes: number;
  private readonly gate: RequestGate;
  /**
   * The kept-alive connections, each a single-connection pool opened when first used; [0] carries all but spread
   * requests.
   */
  private readonly connections: Connection[];
  private path = '/';
  private responder: ServerRequestResponder | undefined;
  private readonly strayLog = new StrayLog();
  /**
   * The connection our answers to the server's requests are POSTed on: not the first, where the request whose stream
   * carried the server's request is still waiting for its response.
   */
  private answers: Pool | undefined;
  /** The GET stream of the `initialize` wire (openServerStream), until close(). */
  private serverStream:
    { pool: Pool; controller: AbortController; reading: Promise<void>; opened: Promise<void> } | undefined;
  /** The POSTs of our answers to the server's requests (postAnswer), the first MAX_ANSWER_POSTS_KEPT. */
  private readonly answerPostLog: Exchange[] = [];
  /**
   * The GET of openServerStream as an exchange: its status and headers once they came, or its failure; no body is kept.
   */
  private serverStreamGet: Exchange | undefined;
  /** Set by the first request sent with `anyConnection` (pickConnection). */
  private spreading = false;
  /**
   * Set once the target turned out to speak the deprecated HTTP+SSE transport (fallBackToHttpSse): it carries
   * everything since.
   */
  private httpSse: HttpSseTransport | undefined;
  /**
   * Pools taken off their Connection to read a timed-out POST's late answer (PostHandler), until it comes or its grace
   * ends.
   */
  private readonly latePools = new Set<Pool>();

  constructor(private readonly options: HttpTransportOptions) {
    this.description = describeUrl(options.url);
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.gate = options.gate ?? new RequestGate();
    const count = Math.max(1, Math.floor(options.connections ?? 1));
    this.connections = Array.from({ length: count }, () => ({
      inFlight: 0,
      answered: false,
      refused: false,
      busy: false,
      waiting: [],
    }));
  }

  get kind(): 'http' | 'http+sse' {
    return this.httpSse ? 'http+sse' : 'http';
  }

  get connectionCount(): number {
    return this.httpSse?.connectionCount ?? this.connections.length;
  }

  async start(): Promise<void> {
    this.connectionPool();
  }

  send(message: unknown, id: JsonRpcId | undefined, options: SendOptions = {}): Promise<Exchange> {
    if (this.httpSse) return this.httpSse.send(message, id, options);
    return this.honouringRetryAfter(() => this.attempt(message, id, options));
  }

  async fallBackToHttpSse(): Promise<{ found: boolean; why: string }> {
    if (this.httpSse) return { found: true, why: this.httpSse.found };
    const httpSse = new HttpSseTransport({ ...this.options, connections: this.options.httpSseConnections ?? 1 });
    if (this.responder) httpSse.answerServerRequests(this.responder);
    try {
      await httpSse.start();
    } catch (error) {
      await httpSse.close();
      if (error instanceof TargetUnavailableError) return { found: false, why: error.message };
      throw error;
    }
    this.httpSse = httpSse;
    return { found: true, why: httpSse.found };
  }

  /**
   * subscriptions/listen: a POST whose SSE response stays open, on a connection of its own so that the requests the
   * audit makes meanwhile are not queued behind it. The per-request timeout bounds only the wait for the headers.
   */
  async listen(message: unknown, id: JsonRpcId, options: SendOptions = {}): Promise<ListenStream> {
    await this.gate.acquire();
    const url = parseTargetUrl(this.options.url);
    const connection = originPool(url);
    const headers = this.outgoingHeaders(options.headers);
    const exchange = newExchange(message, headers);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    let closedByUs = false;
    let reading: Promise<void> = Promise.resolve();
    const listen = new ListenState(exchange, async () => {
      closedByUs = true;
      controller.abort();
      await reading;
      if (!connection.destroyed) await connection.destroy();
    });
    let headersArrived = false;
    const headersTimer = setTimeout(() => setImmediate(() => headersArrived || controller.abort()), timeoutMs);
    reading = (async () => {
      try {
        const response = await connection.request({
          path: url.pathname + url.search,
          method: 'POST',
          headers: sentHeaders(headers),
          body: JSON.stringify(message),
          signal: controller.signal,
        });
        clearTimeout(headersTimer);
        headersArrived = true;
        exchange.status = response.statusCode;
        exchange.responseHeaders = recordedResponseHeaders(response.headers);
        await new ResponseReader(exchange, id, false, this.maxMessageBytes, this.onServerRequest, () =>
          listen.onMessage(),
        ).read(response);
      } catch (error) {
        if (!closedByUs) {
          exchange.failure = controller.signal.aborted
            ? { kind: 'timeout', message: `no response headers within ${timeoutMs} ms` }
            : failureFromError(error);
        }
      } finally {
        clearTimeout(headersTimer);
        listen.onEnd();
      }
    })();
    return listen;
  }

  get origin(): string | undefined {
    try {
      return new URL(this.options.url).origin;
    } catch {
      return undefined;
    }
  }

  /**
   * A non-POST request to the endpoint (GET/DELETE probes of the compatibility rules); the body is kept raw, at most 4
   * KiB.
   */
  probeMethod(method: 'GET' | 'DELETE', headers: Record<string, string> = {}): Promise<Exchange> {
    return this.honouringRetryAfter(() => this.probeAttempt(method, headers));
  }

  /**
   * A 429 is retried once after its Retry-After, during which no connection of the run writes (the gate holds them).
   * A 429 we cannot wait out (no usable Retry-After, one over 30 s, or a second 429) is a `rate-limited` failure.
   */
  private async honouringRetryAfter(attempt: () => Promise<Exchange>): Promise<Exchange> {
    const first = await attempt();
    if (first.status !== 429) return first;
    const retryAfter = first.responseHeaders?.['retry-after'];
    const delayMs = retryAfterMs(retryAfter, Date.now());
    if (delayMs === undefined || delayMs > MAX_RETRY_AFTER_MS) {
      first.failure = { kind: 'rate-limited', message: tooManyRequests(retryAfter, delayMs) };
      return first;
    }
    this.gate.holdOff(delayMs);
    const second = await attempt();
    if (second.status === 429) {
      second.failure = {
        kind: 'rate-limited',
        message:
          `HTTP 429 Too Many Requests again after waiting out Retry-After: ${retryAfter}; not retried ` +
          `further (rerun later, or with a lower --max-rps)`,
      };
    }
    return second;
  }

  private async probeAttempt(method: 'GET' | 'DELETE', headers: Record<string, string>): Promise<Exchange> {
    await this.gate.acquire();
    const release = await takeTurn(this.connections[0]!);
    const pool = this.connectionPool();
    const sent = this.outgoingHeaders(headers);
    const exchange: Exchange = {
      seq: nextSeq(),
      sentAt: new Date().toISOString(),
      durationMs: 0,
      request: { httpMethod: method, path: this.path },
      requestHeaders: recordedRequestHeaders(sent),
      notifications: [],
    };
    const controller = new AbortController();
    const timer = setTimeout(() => setImmediate(() => controller.abort()), this.options.timeoutMs);
    const started = performance.now();
    try {
      const response = await pool.request({
        path: this.path,
        method,
        headers: sentHeaders(sent),
        signal: controller.signal,
      });
      await recordAnswerStart(exchange, response);
    } catch (error) {
      exchange.failure = controller.signal.aborted
        ? { kind: 'timeout', message: `no response within ${this.options.timeoutMs} ms` }
        : failureFromError(error);
    } finally {
      clearTimeout(timer);
      release();
      exchange.durationMs = Math.round(performance.now() - started);
    }
    return exchange;
  }

  strays(): readonly StrayEvent[] {
    return this.httpSse?.strays() ?? this.strayLog.events;
  }

  answerServerRequests(responder: ServerRequestResponder): void {
    this.responder = responder;
    this.httpSse?.answerServerRequests(responder);
  }

  /**
   * A request from the server (on a POST's event stream or the GET stream): answered by a POST of its own, and kept
   * with its answer. `invalidUtf8` marks one from the GET stream (one on a POST's stream is counted on that exchange).
   */
  private readonly onServerRequest = (request: Record<string, unknown>, size: number, invalidUtf8 = false): void => {
    const answer = this.responder?.(request);
    if (answer) void this.postAnswer(answer);
    this.strayLog.add('server-request', request, size, {
      ...(invalidUtf8 ? { invalidUtf8: true as const } : {}),
      ...(answer ? { answer: answer.response } : {}),
    });
  };

  /**
   * 2025-11-25 basic/transports: the body of a POST may be a JSON-RPC response, which the server accepts with 202.
   * Whatever the server makes of it shows in what it does next, where the checks judge it; nothing is recorded here.
   */
  private async postAnswer(answer: ServerRequestAnswer): Promise<void> {
    const url = parseTargetUrl(this.options.url);
    this.answers ??= originPool(url);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    const headers = this.outgoingHeaders(answer.headers);
    const post = newExchange(answer.response, headers);
    if (this.answerPostLog.length < MAX_ANSWER_POSTS_KEPT) this.answerPostLog.push(post);
    const started = performance.now();
    try {
      const response = await this.answers.request({
        path: url.pathname + url.search,
        method: 'POST',
        headers: sentHeaders(headers),
        body: JSON.stringify(answer.response),
        signal: controller.signal,
      });
      await recordAnswerStart(post, response);
    } catch (error) {
      // A server that is gone or stuck fails the requests of the audit, which say so.
      post.failure = controller.signal.aborted
        ? { kind: 'timeout', message: `no answer within ${this.options.timeoutMs} ms` }
        : failureFromError(error);
    } finally {
      clearTimeout(timer);
      post.durationMs = Math.round(performance.now() - started);
    }
  }

  answerPosts(): readonly Exchange[] {
    return this.httpSse ? [] : this.answerPostLog;
  }

  /**
   * Resolves once the stream is open (its response headers arrived) or refused, or after SERVER_STREAM_WAIT_MS: a
   * server may hold the headers back until it has something to send. The stream stays until close(), silent or not.
   */
  openServerStream(headers: Record<string, string>): Promise<void> {
    // Over HTTP+SSE the server's messages already have their stream.
    if (this.httpSse) return Promise.resolve();
    if (this.serverStream) return this.serverStream.opened;
    const url = parseTargetUrl(this.options.url);
    const pool = originPool(url);
    const controller = new AbortController();
    const sent = this.outgoingHeaders(headers);
    const get: Exchange = {
      seq: nextSeq(),
      sentAt: new Date().toISOString(),
      durationMs: 0,
      request: { httpMethod: 'GET', path: url.pathname + url.search },
      requestHeaders: recordedRequestHeaders(sent),
      notifications: [],
    };
    this.serverStreamGet = get;
    const started = performance.now();
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
      setTimeout(resolve, Math.min(SERVER_STREAM_WAIT_MS, this.options.timeoutMs)).unref();
    });
    const reading = (async () => {
      try {
        const response = await pool.request({
          path: url.pathname + url.search,
          method: 'GET',
          headers: sentHeaders(sent),
          signal: controller.signal,
        });
        get.status = response.statusCode;
        get.responseHeaders = recordedResponseHeaders(response.headers);
        get.durationMs = Math.round(performance.now() - started);
        opened();
        // A server that offers no stream answers 405 (or anything else): nothing will arrive there.
        if (response.statusCode !== 200 || mediaType(response.headers['content-type']) !== 'text/event-stream')
          return await response.body.dump();
        const events = new SseParser();
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          for (const event of events.push(chunk)) this.onStreamEvent(event);
          if (events.pendingLength > this.maxMessageBytes) break;
        }
      } catch (error) {
        // Closed by us, or broken: the stream only ever adds evidence.
        if (get.status === undefined && !controller.signal.aborted) get.failure = failureFromError(error);
      } finally {
        opened();
      }
    })();
    this.serverStream = { pool, controller, reading, opened: open };
    return open;
  }

  serverStreamAnswer(): Exchange | undefined {
    return this.httpSse ? undefined : this.serverStreamGet;
  }

  /** One event of the GET stream. Only JSON-RPC messages are kept: no check judges anything else sent there. */
  private onStreamEvent(event: SseEvent): void {
    if (event.data.trim() === '' || jsonNestedDeeperThan(event.data, MAX_JSON_DEPTH)) return;
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (!isObject(message)) return;
    if (isServerRequest(message)) return this.onServerRequest(message, event.data.length, event.invalidUtf8);
    this.strayLog.add(
      'method' in message ? 'notification' : 'unknown-id',
      message,
      event.data.length,
      event.invalidUtf8 ? { invalidUtf8: true } : {},
    );
  }

  stderr(): string {
    return '';
  }

  async close(): Promise<void> {
    await this.httpSse?.close();
    const stream = this.serverStream;
    this.serverStream = undefined;
    stream?.controller.abort();
    await stream?.reading;
    const pools = [
      ...this.connections.map((connection) => connection.pool),
      stream?.pool,
      this.answers,
      ...this.latePools,
    ];
    this.latePools.clear();
    for (const connection of this.connections) connection.pool = undefined;
    this.answers = undefined;
    await Promise.all(pools.map((pool) => (pool && !pool.destroyed ? pool.destroy() : undefined)));
  }

  private connectionPool(connection: Connection = this.connections[0]!): Pool {
    if (connection.pool) return connection.pool;
    const url = parseTargetUrl(this.options.url);
    this.path = url.pathname + url.search;
    // undici's own timers are off: one timer per request bounds headers and body together.
    // All but spread requests share the first kept-alive connection: "a connection" then means what the spec means
    // (tools.list.no-connection-variance), also to a server that scopes state by TCP connection (the reference
    // server's connection-scoped-tools defect), whose list walks must all meet on one connection.
    connection.pool = originPool(url);
    return connection.pool;
  }

  /**
   * The connection for a request: the first, or for a spread request the one with the fewest requests in flight. The
   * first spread request of the client goes over the first connection too: what that connection carries then includes a
   * request of every kind the audit makes, so a server that changes a connection's tool set once it has seen a tool
   * call shows it on the connection the list walks use (tools.list.no-connection-variance.after-calls).
   */
  private pickConnection(anyConnection: boolean | undefined): Connection {
    const first = this.connections[0]!;
    if (!anyConnection) return first;
    if (!this.spreading) {
      this.spreading = true;
      return first;
    }
    return this.connections.reduce((best, c) => (!c.refused && c.inFlight < best.inFlight ? c : best), first);
  }

  /**
   * One POST through undici's dispatch API: the response is read as it arrives, without the stream, abort signal and
   * async resource that `request()` builds around each response (~0.1–0.2 ms of CPU per request).
   */
  private async attempt(message: unknown, id: JsonRpcId | undefined, options: SendOptions): Promise<Exchange> {
    await this.gate.acquire();
    const connection = this.pickConnection(options.anyConnection);
    connection.inFlight += 1;
    const release = await takeTurn(connection);
    const pool = this.connectionPool(connection);
    const headers = this.outgoingHeaders(options.headers);
    const exchange = newExchange(message, headers);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const reader = new ResponseReader(
      exchange,
      id,
      options.notification === true,
      this.maxMessageBytes,
      this.onServerRequest,
    );
    const started = performance.now();
    await new Promise<void>((settle) => {
      const post = new PostHandler(exchange, reader, timeoutMs, settle, () =>
        this.detachForLateAnswer(connection, pool),
      );
      try {
        pool.dispatch(
          {
            path: this.path,
            method: 'POST',
            headers: sentHeaders(headers),
            body: typeof message === 'string' ? message : JSON.stringify(message),
          },
          post,
        );
      } catch (error) {
        post.onResponseError(undefined, error as Error);
      }
    });
    connection.inFlight -= 1;
    release();
    exchange.durationMs = Math.round(performance.now() - started);
    if (exchange.status !== undefined) connection.answered = true;
    else if (connection !== this.connections[0] && exchange.failure?.kind === 'connection' && !connection.answered) {
      // A server may limit how many connections a client opens: an extra one it never answered on is dropped, and the
      // request goes over the first connection instead (a target that is gone fails there too).
      connection.refused = true;
      return this.attempt(message, id, { ...options, anyConnection: false });
    }
    return exchange;
  }

  /**
   * A POST that timed out may still be answered, and a verdict must not say that answer never came: its connection is
   * left to it for its grace, and the requests after it open a new one (as they would after aborting it). Returns the
   * release of the pool, or undefined when the POST is to be aborted.
   */
  private detachForLateAnswer(connection: Connection, pool: Pool): (() => void) | undefined {
    if (connection.pool !== pool) return undefined;
    connection.pool = undefined;
    this.latePools.add(pool);
    return () => {
      if (this.latePools.delete(pool) && !pool.destroyed) void pool.destroy().catch(() => undefined);
    };
  }

  private outgoingHeaders(perRequest: Record<string, string> = {}): OutgoingHeader[] {
    return outgoingHeaders(
      { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      this.options.headers,
      perRequest,
    );
  }
}

/** One kept-alive connection of a client: its pool once opened, and how the target has treated it. */
interface Connection {
  pool?: Pool;
  inFlight: number;
  /** The target answered on it (an extra connection that later fails is then the target's failure, not a refusal). */
  answered: boolean;
  /** The target refused it before ever answering on it: no longer used. */
  refused: boolean;
  /**
   * A request is on it; the requests `waiting` go in turn, each timed from when it is sent, not from when it queued.
   */
  busy: boolean;
  waiting: Array<() => void>;
}

/** Waits until the connection is free and takes it; the function returned hands it to the next request waiting. */
async function takeTurn(connection: Connection): Promise<() => void> {
  if (connection.busy) await new Promise<void>((resolve) => connection.waiting.push(resolve));
  connection.busy = true;
  return () => {
    const next = connection.waiting.shift();
    if (next) next();
    else connection.busy = false;
  };
}

/** Reads one HTTP response into an Exchange, applying the size bound and the JSON/SSE rules. */
class ResponseReader {
  private bytesRead = 0;
  private readonly chunks: Buffer[] = [];
  private events: SseParser | undefined;

  constructor(
    private exchange: Exchange,
    private readonly id: JsonRpcId | undefined,
    private readonly notification: boolean,
    private readonly maxBytes: number,
    /**
     * A request from the server on this stream: it is answered (or not) by the transport, and kept with the
     * notifications.
     */
    private readonly onRequest: (request: Record<string, unknown>, size: number) => void,
    private readonly onMessage?: () => void,
  ) {}

  /**
   * What is read from now on goes into `exchange`, keeping what was read so far: a settled exchange stays as it was.
   */
  redirect(exchange: Exchange): void {
    this.exchange = exchange;
  }

  async read(response: Dispatcher.ResponseData): Promise<void> {
    this.begin(response.headers['content-type']);
    for await (const chunk of response.body as AsyncIterable<Buffer>) if (this.push(chunk)) return;
    this.finish();
  }

  begin(contentType: string | string[] | undefined): void {
    if (mediaType(contentType) === 'text/event-stream') this.events = new SseParser();
  }

  /** Takes one chunk of the body; returns true once reading should stop. Throws when the size bound is passed. */
  push(chunk: Buffer): boolean {
    if (this.events) {
      const events = this.events.push(chunk);
      // An event stream may go on for long; the bound applies to each event, not to the whole stream.
      if (this.events.pendingLength > this.maxBytes) throw new ResponseTooLargeError(this.maxBytes);
      return this.acceptEvents(events);
    }
    this.bytesRead += chunk.length;
    if (this.bytesRead > this.maxBytes) throw new ResponseTooLargeError(this.maxBytes);
    this.chunks.push(chunk);
    return false;
  }

  /** The body ended. */
  finish(): void {
    if (!this.events) {
      const body = decodeUtf8(Buffer.concat(this.chunks));
      this.interpretBody(body.text, !body.valid);
      return;
    }
    if (this.acceptEvents(this.events.end())) return;
    if (!this.notification) {
      this.exchange.failure = {
        kind: 'malformed',
        message: `SSE stream ended without a response to id ${JSON.stringify(this.id)}`,
      };
    }
  }

  /** Returns true once reading should stop: our response arrived or the stream is unusable. */
  private acceptEvents(events: SseEvent[]): boolean {
    for (const event of events) {
      // Servers of 2025-11-25 prime resumable streams with an id and empty data.
      if (event.data.trim() === '') continue;
      if (jsonNestedDeeperThan(event.data, MAX_JSON_DEPTH)) {
        this.exchange.failure = { kind: 'too-deep', message: tooDeepMessage(MAX_JSON_DEPTH) };
        return true;
      }
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        this.exchange.failure = { kind: 'malformed', message: 'SSE event data is not JSON' };
        this.exchange.rawBody = truncate(event.data);
        return true;
      }
      if (event.invalidUtf8) this.exchange.invalidUtf8 = (this.exchange.invalidUtf8 ?? 0) + 1;
      if ((isFinalResponse(message) && answers(message, this.id)) || batchAnswers(message, this.id)) {
        this.exchange.response = message;
        return true;
      }
      recordNotification(this.exchange, message, event.data.length);
      if (isServerRequest(message)) this.onRequest(message, event.data.length);
      this.onMessage?.();
    }
    return false;
  }

  /** `invalidUtf8`: the body's bytes were not valid UTF-8; a JSON body is then marked as such. */
  private interpretBody(text: string, invalidUtf8 = false): void {
    const status = this.exchange.status ?? 0;
    const success = status >= 200 && status < 300;
    if (text.trim() === '') {
      if (success && this.notification) return;
      this.fail(success ? 'malformed' : 'http-status', `HTTP ${status} with empty body`, text);
      return;
    }
    if (jsonNestedDeeperThan(text, MAX_JSON_DEPTH)) {
      this.exchange.failure = { kind: 'too-deep', message: tooDeepMessage(MAX_JSON_DEPTH) };
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.fail(success ? 'malformed' : 'http-status', `HTTP ${status} with non-JSON body`, text);
      return;
    }
    this.exchange.response = parsed;
    if (invalidUtf8) this.exchange.invalidUtf8 = 1;
    if (!success || this.notification || batchAnswers(parsed, this.id)) return;
    if (!isFinalResponse(parsed)) {
      this.exchange.failure = { kind: 'malformed', message: `HTTP ${status} body is not a JSON-RPC response` };
    } else if (!answers(parsed, this.id)) {
      this.exchange.failure = {
        kind: 'wrong-id',
        message: `response id ${JSON.stringify(parsed.id)} does not match request id ${JSON.stringify(this.id)}`,
      };
    }
  }

  private fail(kind: TransportFailure['kind'], message: string, body: string): void {
    this.exchange.failure = { kind, message };
    this.exchange.rawBody = truncate(body);
  }
}

/**
 * undici dispatch handler of one POST: fills the exchange through a ResponseReader and settles exactly once — on the
 * end of the body, on our response in an event stream, on an error, or on the timeout (which bounds headers and body
 * together, from when the connection is ours: a request waiting for its turn is not timed). A POST that timed out once
 * sent keeps being read, when its connection can be left to it (`detach`), for its late answer.
 */
class PostHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private settled = false;
  private readonly timer: NodeJS.Timeout;
  private readonly started = performance.now();
  private late:
    | {
        read: Exchange;
        timeoutMs: number;
        timer: NodeJS.Timeout;
        done(answer: LateAnswer | undefined): void;
        release(): void;
      }
    | undefined;

  constructor(
    private readonly exchange: Exchange,
    private readonly reader: ResponseReader,
    private readonly timeoutMs: number,
    private readonly settle: () => void,
    private readonly detach: () => (() => void) | undefined,
  ) {
    // Decided after one more poll phase, so that a response already received after a blocked main thread counts.
    this.timer = setTimeout(() => setImmediate(() => this.timedOut()), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.settled) controller.abort(new Error('request no longer wanted'));
    else this.controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Dispatcher.ResponseData['headers'],
  ): void {
    if (statusCode < 200 || (this.settled && !this.late)) return;
    const into = this.late?.read ?? this.exchange;
    into.status = statusCode;
    into.responseHeaders = recordedResponseHeaders(headers);
    this.reader.begin(headers['content-type']);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled && !this.late) return;
    try {
      if (this.reader.push(chunk)) this.end();
    } catch (error) {
      this.end(failureFromError(error));
    }
  }

  onResponseEnd(): void {
    if (this.settled && !this.late) return;
    try {
      this.reader.finish();
      this.end(undefined, false);
    } catch (error) {
      this.end(failureFromError(error), false);
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.end(failureFromError(error), false);
  }

  private timedOut(): void {
    if (this.settled) return;
    const failure: TransportFailure = {
      kind: 'timeout',
      message: `no complete response within ${this.timeoutMs} ms${callOf(this.exchange.request)}`,
    };
    const release = this.controller ? this.detach() : undefined;
    if (!release) return this.end(failure);
    const read: Exchange = { ...this.exchange, notifications: [] };
    this.reader.redirect(read);
    const done = watchLate(this.exchange);
    this.late = {
      read,
      timeoutMs: this.timeoutMs,
      timer: setTimeout(() => this.endLate(), lateGraceMs(this.timeoutMs)),
      done,
      release,
    };
    this.end(failure, false);
  }

  /**
   * Settles the exchange; `abort` drops the rest of the response (and with it the connection) when one is still coming.
   */
  private end(failure?: TransportFailure, abort = true): void {
    if (this.late && this.settled) return this.endLate(abort);
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (failure) this.exchange.failure = failure;
    if (abort) this.controller?.abort(new Error('response no longer read'));
    this.settle();
  }

  /** The late answer came, or the response ended without one, or the grace ran out. */
  private endLate(abort = true): void {
    const late = this.late;
    if (!late) return;
    this.late = undefined;
    clearTimeout(late.timer);
    if (abort) this.controller?.abort(new Error('response no longer read'));
    late.release();
    const answered = late.read.response !== undefined && late.read.failure === undefined;
    late.done(
      answered
        ? {
            afterMs: Math.round(performance.now() - this.started),
            timeoutMs: late.timeoutMs,
            endedOn: 'timeout',
            response: late.read.response,
          }
        : undefined,
    );
  }
}

/** Records an answer's status, headers and the first ANSWER_BODY_KEPT characters of its body, then drops the rest. */
async function recordAnswerStart(exchange: Exchange, response: Dispatcher.ResponseData): Promise<void> {
  exchange.status = response.statusCode;
  exchange.responseHeaders = recordedResponseHeaders(response.headers);
  let raw = '';
  for await (const chunk of response.body) {
    raw += Buffer.from(chunk as Uint8Array).toString('utf8');
    if (raw.length >= ANSWER_BODY_KEPT) break;
  }
  exchange.rawBody = raw.slice(0, ANSWER_BODY_KEPT);
  response.body.destroy();
}
const ANSWER_BODY_KEPT = 4096;

/** An exchange about to be sent: user-supplied header values are recorded redacted. */
function newExchange(request: unknown, headers: readonly OutgoingHeader[]): Exchange {
  return {
    seq: nextSeq(),
    sentAt: new Date().toISOString(),
    durationMs: 0,
    request,
    requestHeaders: recordedRequestHeaders(headers),
    notifications: [],
  };
}

function isFinalResponse(message: unknown): message is Record<string, unknown> {
  return isObject(message) && 'id' in message && !('method' in message) && ('result' in message || 'error' in message);
}

/** A JSON-RPC batch of responses (2025-03-26) holding the answer to `id`: a batch we sent, answered as a whole. */
function batchAnswers(message: unknown, id: JsonRpcId | undefined): boolean {
  return Array.isArray(message) && message.some((m) => isFinalResponse(m) && answers(m, id));
}

/** An error with a null id is the server saying it could not read our id; it still answers our request. */
function answers(response: Record<string, unknown>, id: JsonRpcId | undefined): boolean {
  if (id === undefined) return true;
  return response.id === id || (response.id === null && 'error' in response);
}

/** RFC 9110 §10.2.3: Retry-After is delay-seconds or an HTTP-date. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) || !/[a-z]/i.test(text) ? undefined : Math.max(0, date - now);
}

function tooManyRequests(retryAfter: string | undefined, delayMs: number | undefined): string {
  const limit = `${MAX_RETRY_AFTER_MS / 1000} s`;
  if (retryAfter === undefined)
    return (
      `HTTP 429 Too Many Requests without Retry-After: the audit stops here (rerun later, or with a lower ` +
      `--max-rps)`
    );
  if (delayMs === undefined)
    return (
      `HTTP 429 Too Many Requests with an unusable Retry-After: ${JSON.stringify(retryAfter.slice(0, 100))}: ` +
      `the audit stops here (rerun later, or with a lower --max-rps)`
    );
  return (
    `HTTP 429 Too Many Requests with Retry-After: ${retryAfter} (${Math.ceil(delayMs / 1000)} s), longer than ` +
    `the ${limit} an audit waits: the audit stops here (rerun later, or with a lower --max-rps)`
  );
}
