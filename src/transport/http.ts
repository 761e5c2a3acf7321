import { setImmediate as nextTurn } from 'node:timers/promises';
import { createRequire } from 'node:module';
import type { Dispatcher, Pool as PoolType } from 'undici';

const Pool = loadPool();
type Pool = PoolType;

/**
 * undici's Pool with the request API, without the package index: the index also loads fetch, WebSocket, caches and
 * mocks (~75 ms of start-up against ~30 ms). This is what the index itself does for Pool (undici is pinned to an exact
 * version); should its layout ever differ, the index is loaded instead.
 */
function loadPool(): typeof PoolType {
  const requireCjs = createRequire(import.meta.url);
  try {
    const pool = requireCjs('undici/lib/dispatcher/pool.js') as typeof PoolType;
    const dispatcher = requireCjs('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    if (!('request' in dispatcher.prototype)) Object.assign(dispatcher.prototype, requireCjs('undici/lib/api/index.js'));
    if (typeof pool.prototype.request === 'function') return pool;
  } catch {
    // fall through to the package index
  }
  return (requireCjs('undici') as typeof import('undici')).Pool;
}
import { isObject } from '../jsonrpc.js';
import type { JsonRpcId } from '../jsonrpc.js';
import { recordNotification } from './evidence-caps.js';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH, tooDeepMessage } from './json-depth.js';
import { ListenState } from './listen-stream.js';
import { RequestGate } from './request-gate.js';
import { DEFAULT_MAX_MESSAGE_BYTES, nextSeq } from './sequence.js';
import { SseParser } from './sse.js';
import type { SseEvent } from './sse.js';
import { TargetUnavailableError } from './types.js';
import type { Exchange, ListenStream, SendOptions, StrayEvent, Transport, TransportFailure } from './types.js';

export interface HttpTransportOptions {
  url: string;
  /** User-supplied headers (e.g. `--header`): sent on every request, redacted in evidence. */
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Defaults to DEFAULT_MAX_MESSAGE_BYTES. */
  maxMessageBytes?: number;
  /** Shared by every connection of a run (--max-rps, Retry-After); defaults to a private one with no cap. */
  gate?: RequestGate;
}

const REDACTED = '[redacted]';
const RAW_BODY_LIMIT = 4096;
/** The longest Retry-After an audit waits out; a longer one ends the audit with the reason. */
const MAX_RETRY_AFTER_MS = 30_000;
const SECRET_RESPONSE_HEADER = /cookie|authorization|token|secret|api-?key/i;

class ResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`response body exceeds ${limit} bytes`);
  }
}

interface OutgoingHeader {
  name: string;
  value: string;
  secret: boolean;
}

export class HttpTransport implements Transport {
  readonly kind = 'http' as const;
  readonly description: string;
  private readonly maxMessageBytes: number;
  private readonly gate: RequestGate;
  private pool: Pool | undefined;
  private path = '/';

  constructor(private readonly options: HttpTransportOptions) {
    this.description = describeUrl(options.url);
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.gate = options.gate ?? new RequestGate();
  }

  async start(): Promise<void> {
    this.connectionPool();
  }

  send(message: unknown, id: JsonRpcId | undefined, options: SendOptions = {}): Promise<Exchange> {
    return this.honouringRetryAfter(() => this.attempt(message, id, options));
  }

  /**
   * subscriptions/listen: a POST whose SSE response stays open, on a connection of its own so that the requests the
   * audit makes meanwhile are not queued behind it. The per-request timeout bounds only the wait for the headers.
   */
  async listen(message: unknown, id: JsonRpcId, options: SendOptions = {}): Promise<ListenStream> {
    await this.gate.acquire();
    const url = parseTargetUrl(this.options.url);
    const connection = new Pool(url.origin, { headersTimeout: 0, bodyTimeout: 0, connections: 1 });
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
          headers: Object.fromEntries(headers.map((h) => [h.name, h.value])),
          body: JSON.stringify(message),
          signal: controller.signal,
        });
        clearTimeout(headersTimer);
        headersArrived = true;
        exchange.status = response.statusCode;
        exchange.responseHeaders = recordedResponseHeaders(response.headers);
        await new ResponseReader(exchange, id, false, this.maxMessageBytes, () => listen.onMessage()).read(response);
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

  /** A non-POST request to the endpoint (GET/DELETE probes of the compatibility rules); the body is kept raw, at most 4 KiB. */
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
        message: `HTTP 429 Too Many Requests again after waiting out Retry-After: ${retryAfter}; not retried further (rerun later, or with a lower --max-rps)`,
      };
    }
    return second;
  }

  private async probeAttempt(method: 'GET' | 'DELETE', headers: Record<string, string>): Promise<Exchange> {
    await this.gate.acquire();
    const pool = this.connectionPool();
    const sent = this.outgoingHeaders(headers);
    const exchange: Exchange = {
      seq: nextSeq(),
      sentAt: new Date().toISOString(),
      durationMs: 0,
      request: { httpMethod: method, path: this.path },
      requestHeaders: Object.fromEntries(sent.map((h) => [h.name, h.secret ? REDACTED : h.value])),
      notifications: [],
    };
    const controller = new AbortController();
    const timer = setTimeout(() => setImmediate(() => controller.abort()), this.options.timeoutMs);
    const started = performance.now();
    try {
      const response = await pool.request({
        path: this.path,
        method,
        headers: Object.fromEntries(sent.map((h) => [h.name, h.value])),
        signal: controller.signal,
      });
      exchange.status = response.statusCode;
      exchange.responseHeaders = recordedResponseHeaders(response.headers);
      let raw = '';
      for await (const chunk of response.body) {
        raw += Buffer.from(chunk as Uint8Array).toString('utf8');
        if (raw.length >= 4096) break;
      }
      exchange.rawBody = raw.slice(0, 4096);
      response.body.destroy();
    } catch (error) {
      exchange.failure = controller.signal.aborted
        ? { kind: 'timeout', message: `no response within ${this.options.timeoutMs} ms` }
        : failureFromError(error);
    } finally {
      clearTimeout(timer);
      exchange.durationMs = Math.round(performance.now() - started);
    }
    return exchange;
  }

  strays(): readonly StrayEvent[] {
    return [];
  }

  stderr(): string {
    return '';
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    if (pool && !pool.destroyed) await pool.destroy();
  }

  private connectionPool(): Pool {
    if (this.pool) return this.pool;
    const url = parseTargetUrl(this.options.url);
    this.path = url.pathname + url.search;
    // undici's own timers are off: one AbortController per request bounds headers and body together.
    // One keep-alive connection per client: "a connection" then means what the spec means (tools.list.no-connection-variance).
    this.pool = new Pool(url.origin, { headersTimeout: 0, bodyTimeout: 0, connections: 1 });
    return this.pool;
  }

  private async attempt(message: unknown, id: JsonRpcId | undefined, options: SendOptions): Promise<Exchange> {
    await this.gate.acquire();
    const pool = this.connectionPool();
    const headers = this.outgoingHeaders(options.headers);
    const exchange = newExchange(message, headers);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    // Decided after one more poll phase, so that a response already received after a blocked main thread counts.
    const timer = setTimeout(() => setImmediate(() => controller.abort()), timeoutMs);
    const started = performance.now();
    try {
      const response = await pool.request({
        path: this.path,
        method: 'POST',
        headers: Object.fromEntries(headers.map((h) => [h.name, h.value])),
        body: typeof message === 'string' ? message : JSON.stringify(message),
        signal: controller.signal,
      });
      exchange.status = response.statusCode;
      exchange.responseHeaders = recordedResponseHeaders(response.headers);
      const reader = new ResponseReader(exchange, id, options.notification === true, this.maxMessageBytes);
      await reader.read(response);
      // undici marks the connection free one turn after the body ends; without this wait an immediate next
      // send would open a second socket instead of reusing the kept-alive one.
      await nextTurn();
    } catch (error) {
      exchange.failure = controller.signal.aborted
        ? { kind: 'timeout', message: `no complete response within ${timeoutMs} ms` }
        : failureFromError(error);
    } finally {
      clearTimeout(timer);
      exchange.durationMs = Math.round(performance.now() - started);
    }
    return exchange;
  }

  /** Base headers, then user headers, then per-request protocol headers; later ones win, names compared case-insensitively. */
  private outgoingHeaders(perRequest: Record<string, string> = {}): OutgoingHeader[] {
    const merged = new Map<string, OutgoingHeader>();
    const add = (source: Record<string, string>, secret: boolean): void => {
      for (const [name, value] of Object.entries(source)) merged.set(name.toLowerCase(), { name, value, secret });
    };
    add({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, false);
    add(this.options.headers ?? {}, true);
    add(perRequest, false);
    return [...merged.values()];
  }
}

/** Reads one HTTP response into an Exchange, applying the size bound and the JSON/SSE rules. */
class ResponseReader {
  private bytesRead = 0;

  constructor(
    private readonly exchange: Exchange,
    private readonly id: JsonRpcId | undefined,
    private readonly notification: boolean,
    private readonly maxBytes: number,
    private readonly onMessage?: () => void,
  ) {}

  async read(response: Dispatcher.ResponseData): Promise<void> {
    if (mediaType(response.headers['content-type']) === 'text/event-stream') {
      await this.readEventStream(response.body);
    } else {
      this.interpretBody(await this.readWholeBody(response.body));
    }
  }

  private count(chunk: Buffer): void {
    this.bytesRead += chunk.length;
    if (this.bytesRead > this.maxBytes) throw new ResponseTooLargeError(this.maxBytes);
  }

  /** An event stream may go on for long; the bound applies to each event, not to the whole stream. */
  private countEvent(parser: SseParser): void {
    if (parser.pendingLength > this.maxBytes) throw new ResponseTooLargeError(this.maxBytes);
  }

  private async readWholeBody(body: AsyncIterable<Buffer>): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of body) {
      this.count(chunk);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private async readEventStream(body: AsyncIterable<Buffer>): Promise<void> {
    const parser = new SseParser();
    for await (const chunk of body) {
      const events = parser.push(chunk);
      this.countEvent(parser);
      if (this.acceptEvents(events)) return;
    }
    if (this.acceptEvents(parser.end())) return;
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
      // Legacy (2025-11-25) servers prime resumable streams with an id and empty data.
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
      if (isFinalResponse(message) && answers(message, this.id)) {
        this.exchange.response = message;
        return true;
      }
      recordNotification(this.exchange, message, event.data.length);
      this.onMessage?.();
    }
    return false;
  }

  private interpretBody(text: string): void {
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
    if (!success || this.notification) return;
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

/** An exchange about to be sent: user-supplied header values are recorded redacted. */
function newExchange(request: unknown, headers: readonly OutgoingHeader[]): Exchange {
  return {
    seq: nextSeq(),
    sentAt: new Date().toISOString(),
    durationMs: 0,
    request,
    requestHeaders: Object.fromEntries(headers.map((h) => [h.name, h.secret ? REDACTED : h.value])),
    notifications: [],
  };
}

function isFinalResponse(message: unknown): message is Record<string, unknown> {
  return isObject(message) && 'id' in message && !('method' in message) && ('result' in message || 'error' in message);
}

/** An error with a null id is the server saying it could not read our id; it still answers our request. */
function answers(response: Record<string, unknown>, id: JsonRpcId | undefined): boolean {
  if (id === undefined) return true;
  return response.id === id || (response.id === null && 'error' in response);
}

function mediaType(contentType: string | string[] | undefined): string {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function truncate(text: string): string {
  return text.length > RAW_BODY_LIMIT ? text.slice(0, RAW_BODY_LIMIT) : text;
}

function recordedResponseHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const recorded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    recorded[lower] = SECRET_RESPONSE_HEADER.test(lower) ? REDACTED : Array.isArray(value) ? value.join(', ') : value;
  }
  return recorded;
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
  if (retryAfter === undefined) return `HTTP 429 Too Many Requests without Retry-After: the audit stops here (rerun later, or with a lower --max-rps)`;
  if (delayMs === undefined) return `HTTP 429 Too Many Requests with an unusable Retry-After: ${JSON.stringify(retryAfter.slice(0, 100))}: the audit stops here (rerun later, or with a lower --max-rps)`;
  return `HTTP 429 Too Many Requests with Retry-After: ${retryAfter} (${Math.ceil(delayMs / 1000)} s), longer than the ${limit} an audit waits: the audit stops here (rerun later, or with a lower --max-rps)`;
}

function errorCode(error: unknown): string | undefined {
  if (!isObject(error)) return undefined;
  if (typeof error.code === 'string') return error.code;
  if (Array.isArray(error.errors)) return errorCode(error.errors[0]);
  return errorCode(error.cause);
}

function failureFromError(error: unknown): TransportFailure {
  if (error instanceof ResponseTooLargeError) return { kind: 'too-large', message: error.message };
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'timeout', message: detail };
  return { kind: 'connection', message: code ? `${code}: ${detail}` : detail };
}

function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetUnavailableError(`invalid URL: ${describeUrl(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetUnavailableError(`unsupported URL scheme ${url.protocol} (only http: and https:)`);
  }
  return url;
}

/** The URL for reports: userinfo and query-string values replaced, since they often carry credentials. */
export function describeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '<unparseable URL>';
  }
  const userinfo = url.username || url.password ? `${REDACTED}@` : '';
  const query = [...url.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=${REDACTED}`).join('&');
  return `${url.protocol}//${userinfo}${url.host}${url.pathname}${query ? `?${query}` : ''}`;
}
