import type { Dispatcher } from 'undici';
import type { JsonRpcId } from '../core/jsonrpc.js';
import {
  describePath,
  describeUrl,
  failureFromError,
  mediaType,
  originPool,
  outgoingHeaders,
  parseTargetUrl,
  RAW_BODY_LIMIT,
  recordedRequestHeaders,
  recordedResponseHeaders,
  sentHeaders,
  type HttpTargetOptions,
  type OutgoingHeader,
  type Pool,
} from './http-common.js';
import { RequestGate } from './request-gate.js';
import { DEFAULT_MAX_MESSAGE_BYTES, nextSeq } from './sequence.js';
import { SingleChannel } from './single-channel.js';
import { SseParser, type SseEvent } from './sse.js';
import { TargetUnavailableError, type SendOptions, type ServerRequestResponder, type Transport } from './types.js';
import type { Exchange, StrayEvent, TransportFailure } from '../model/exchange.js';

/**
 * What an HTTP+SSE target is reached with: its URL (a GET there opens the event stream), the headers sent on the GET
 * and every POST, `timeoutMs` bounding each request and the wait for the `endpoint` event, `maxMessageBytes` each event
 * of the stream and what may arrive before `endpoint`, and `connections` the kept-alive connections the POSTs may use.
 */
export type HttpSseTransportOptions = HttpTargetOptions;

/** What a POST of ours came back with: the server's answer itself arrives on the event stream. */
interface Posted {
  status?: number;
  headers?: Record<string, string>;
  failure?: TransportFailure;
  rawBody?: string;
}

const CLOSED_EARLY = 'the connection was closed before the endpoint event arrived';

/**
 * The HTTP with SSE transport of 2024-11-05 (basic/transports#http-with-sse), deprecated since 2025-03-26: a GET to the
 * target's URL opens an event stream whose first event, `endpoint`, names the URL every message of ours is POSTed to;
 * what the server sends arrives on that one stream as `message` events, read like stdio's stdout (single-channel.ts).
 * The endpoint must be on the target's origin: this tool only talks to the target.
 */
export class HttpSseTransport implements Transport {
  readonly kind = 'http+sse' as const;
  readonly description: string;
  private readonly maxMessageBytes: number;
  private readonly gate: RequestGate;
  private readonly channel = new SingleChannel(
    (answer) =>
      void this.post(JSON.stringify(answer.response), this.postHeaders(answer.headers), this.options.timeoutMs),
  );
  private starting: Promise<void> | undefined;
  /** The URL of the `endpoint` event, once it arrived. */
  private endpoint: URL | undefined;
  private posts: Pool | undefined;
  private stream: { pool: Pool; controller: AbortController; reading: Promise<void> } | undefined;
  private closed = false;

  constructor(private readonly options: HttpSseTransportOptions) {
    this.description = describeUrl(options.url);
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.gate = options.gate ?? new RequestGate();
  }

  get origin(): string | undefined {
    try {
      return new URL(this.options.url).origin;
    } catch {
      return undefined;
    }
  }

  get connectionCount(): number {
    return Math.max(1, Math.floor(this.options.connections ?? 1));
  }

  /** Opens the event stream and waits for its `endpoint` event; throws TargetUnavailableError saying why none came. */
  start(): Promise<void> {
    this.starting ??= this.open();
    return this.starting;
  }

  /** How the transport was found, for the wire's reason: the endpoint's path, its query values hidden as in reports. */
  get found(): string {
    const endpoint = this.endpoint ? describePath(this.endpoint) : '(none yet)';
    return (
      `a GET opened an event stream whose first event, endpoint, named ${endpoint}: the deprecated HTTP+SSE ` +
      `transport of 2024-11-05`
    );
  }

  async send(message: unknown, id: JsonRpcId | undefined, options: SendOptions = {}): Promise<Exchange> {
    await this.gate.acquire();
    const headers = this.postHeaders(options.headers);
    const exchange: Exchange = {
      seq: nextSeq(),
      sentAt: new Date().toISOString(),
      durationMs: 0,
      request: message,
      requestHeaders: recordedRequestHeaders(headers),
      notifications: [],
    };
    const started = performance.now();
    const unusable =
      this.channel.unusable ??
      (this.endpoint ? undefined : { kind: 'connection' as const, message: 'the HTTP+SSE event stream is not open' });
    if (unusable) {
      exchange.failure = unusable;
      return exchange;
    }
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const expectsAnswer = id !== undefined && options.notification !== true;
    // Registered before the POST: the answer may come on the stream before the POST's own response.
    const answered = expectsAnswer ? this.channel.await(exchange, id, timeoutMs, started) : undefined;
    const posted = await this.post(typeof message === 'string' ? message : JSON.stringify(message), headers, timeoutMs);
    if (posted.status !== undefined) exchange.status = posted.status;
    if (posted.headers) exchange.responseHeaders = posted.headers;
    if (posted.rawBody !== undefined) exchange.rawBody = posted.rawBody;
    if (!answered) {
      if (posted.failure) exchange.failure = posted.failure;
      exchange.durationMs = Math.round(performance.now() - started);
      return exchange;
    }
    if (posted.failure) this.channel.fail(id!, posted.failure);
    return answered;
  }

  strays(): readonly StrayEvent[] {
    return this.channel.strays();
  }

  answerServerRequests(responder: ServerRequestResponder): void {
    this.channel.answerServerRequests(responder);
  }

  stderr(): string {
    return '';
  }

  async close(): Promise<void> {
    this.closed = true;
    const stream = this.stream;
    this.stream = undefined;
    stream?.controller.abort();
    await stream?.reading;
    // Nothing is sent after this: a late request fails at once instead of opening a connection again.
    this.channel.end({ kind: 'target-exited', message: 'transport closed' });
    const pools = [stream?.pool, this.posts];
    this.posts = undefined;
    await Promise.all(pools.map((pool) => (pool && !pool.destroyed ? pool.destroy() : undefined)));
  }

  private postHeaders(perRequest: Record<string, string> = {}): OutgoingHeader[] {
    return outgoingHeaders({ 'Content-Type': 'application/json' }, this.options.headers, perRequest);
  }

  /**
   * One POST to the endpoint. 2xx is all we wait for (the answer comes on the stream); anything else fails the message
   * it carried, with the body kept. A 429 ends the audit: its Retry-After is not waited out over this transport.
   */
  private async post(body: string, headers: readonly OutgoingHeader[], timeoutMs: number): Promise<Posted> {
    const endpoint = this.endpoint!;
    this.posts ??= originPool(endpoint, this.connectionCount);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await this.posts.request({
        path: endpoint.pathname + endpoint.search,
        method: 'POST',
        headers: sentHeaders(headers),
        body,
        signal: controller.signal,
      });
      const posted: Posted = { status: response.statusCode, headers: recordedResponseHeaders(response.headers) };
      if (response.statusCode >= 200 && response.statusCode < 300) {
        await response.body.dump();
        return posted;
      }
      const text = await readSome(response.body, RAW_BODY_LIMIT);
      posted.rawBody = text;
      posted.failure =
        response.statusCode === 429
          ? {
              kind: 'rate-limited',
              message:
                'HTTP 429 Too Many Requests to the POST of a message: the audit stops here (rerun later, or ' +
                'with a lower --max-rps)',
            }
          : {
              kind: 'http-status',
              message:
                `HTTP ${response.statusCode} to the POST of the message` +
                `${text.trim() === '' ? '' : ` (body: ${JSON.stringify(text.slice(0, 200))})`}`,
            };
      return posted;
    } catch (error) {
      if (controller.signal.aborted)
        return {
          failure: { kind: 'timeout', message: `the POST of the message was not answered within ${timeoutMs} ms` },
        };
      return { failure: failureFromError(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The GET, up to its `endpoint` event (bounded by the timeout, and by --max-message-bytes in what may come before
   * it); the stream is then read until close() or its end, which ends the connection.
   */
  private async open(): Promise<void> {
    const url = parseTargetUrl(this.options.url);
    await this.gate.acquire();
    if (this.closed) throw new TargetUnavailableError(CLOSED_EARLY);
    const pool = originPool(url);
    const controller = new AbortController();
    let settled = false;
    let settle!: (why?: string) => void;
    const decided = new Promise<string | undefined>((resolve) => {
      settle = (why) => {
        if (settled) return;
        settled = true;
        resolve(why);
        if (why !== undefined) controller.abort();
      };
    });
    const timeoutMs = this.options.timeoutMs;
    const timer = setTimeout(
      () =>
        setImmediate(() => settle(`no endpoint event arrived on the GET stream within ${timeoutMs} ms (--timeout)`)),
      timeoutMs,
    );
    const reading = this.read(url, pool, controller, settle).finally(() => clearTimeout(timer));
    this.stream = { pool, controller, reading };
    const refused = await decided;
    clearTimeout(timer);
    if (refused !== undefined) {
      await reading;
      throw new TargetUnavailableError(refused);
    }
  }

  /** Reads the GET stream; `settle` is called once the endpoint arrived (no argument) or with why it cannot come. */
  private async read(url: URL, pool: Pool, controller: AbortController, settle: (why?: string) => void): Promise<void> {
    const headers = outgoingHeaders({ Accept: 'text/event-stream' }, this.options.headers);
    try {
      const response = await pool.request({
        path: url.pathname + url.search,
        method: 'GET',
        headers: sentHeaders(headers),
        signal: controller.signal,
      });
      const type = mediaType(response.headers['content-type']);
      if (response.statusCode !== 200 || type !== 'text/event-stream') {
        const text = await readSome(response.body, 200);
        const what =
          response.statusCode !== 200
            ? `HTTP ${response.statusCode}`
            : `HTTP 200 with Content-Type ${JSON.stringify(type || '(none)')}`;
        return settle(
          `a GET to the URL answered ${what}, not an event stream` +
            `${text.trim() === '' ? '' : ` (body: ${JSON.stringify(text.slice(0, 200))})`}`,
        );
      }
      const parser = new SseParser();
      let before = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        const waiting = !this.endpoint;
        if (waiting) before += chunk.length;
        for (const event of parser.push(chunk)) {
          const refused = this.onEvent(event, url);
          if (refused !== undefined) return settle(refused);
        }
        if (waiting && this.endpoint) settle();
        if (!this.endpoint && before > this.maxMessageBytes) {
          return settle(
            `the GET stream sent ${before} bytes without an endpoint event (--max-message-bytes ` +
              `${this.maxMessageBytes})`,
          );
        }
        if (parser.pendingLength > this.maxMessageBytes) {
          return this.channel.end({
            kind: 'too-large',
            message:
              `an event of the HTTP+SSE stream exceeded ${this.maxMessageBytes} bytes (--max-message-bytes): ` +
              `the stream was dropped`,
          });
        }
      }
      if (!this.endpoint) return settle('the GET stream ended before its endpoint event');
      this.channel.end({ kind: 'target-exited', message: 'the server ended the HTTP+SSE event stream' });
    } catch (error) {
      if (this.closed || controller.signal.aborted) return;
      const failure = failureFromError(error);
      if (!this.endpoint) return settle(`a GET to the URL failed: ${failure.message}`);
      this.channel.end({ kind: 'target-exited', message: `the HTTP+SSE event stream broke: ${failure.message}` });
    } finally {
      // Closed while waiting: start() must not wait for an endpoint that can no longer come.
      if (!this.endpoint) settle(CLOSED_EARLY);
    }
  }

  /** One event of the stream; returns why the stream cannot be used, if it cannot. */
  private onEvent(event: SseEvent, url: URL): string | undefined {
    if (!this.endpoint) {
      if (event.event !== 'endpoint')
        return `the first event of the GET stream was ${JSON.stringify(event.event.slice(0, 60))}, not "endpoint"`;
      let endpoint: URL;
      try {
        endpoint = new URL(event.data.trim(), url);
      } catch {
        return `the endpoint event's data is not a URI: ${JSON.stringify(event.data.slice(0, 100))}`;
      }
      if (endpoint.origin !== url.origin) {
        return (
          `the endpoint event names a URL on ${endpoint.origin}, another origin than the target's ${url.origin}` +
          `: not followed, since this tool only talks to the target`
        );
      }
      this.endpoint = endpoint;
      return undefined;
    }
    if (event.event === 'message') {
      if (event.data.trim() !== '') this.channel.receive(event.data, event.invalidUtf8);
    } else {
      this.channel.noise(`event: ${event.event}\ndata: ${event.data}`);
    }
    return undefined;
  }
}

/** Up to `limit` characters of a body; the rest is not read. */
async function readSome(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  let text = '';
  for await (const chunk of body as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length >= limit) break;
  }
  body.destroy();
  return text.slice(0, limit);
}
