import { isObject, type JsonRpcId } from '../core/jsonrpc.js';
import { recordNotification, StrayLog } from './evidence-caps.js';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH, tooDeepMessage } from './json-depth.js';
import { callOf, lateGraceMs, watchLate, type LateAnswer } from './late-answers.js';
import { ListenState } from './listen-stream.js';
import { nextSeq } from './sequence.js';
import type { ServerRequestAnswer, ServerRequestResponder } from './types.js';
import type { Exchange, StrayEvent, TransportFailure } from '../model/exchange.js';

interface Pending {
  exchange: Exchange;
  started: number;
  timeoutMs?: number;
  timer?: NodeJS.Timeout;
  resolve(exchange: Exchange): void;
  /** A subscriptions/listen stream: no timeout, and never the target of the one-request-in-flight heuristics. */
  listen?: ListenState;
  /** Armed by a line that was not JSON (`unreadable`): a real answer must come soon. */
  unreadableTimer?: NodeJS.Timeout;
}

const RAW_LINE_KEEP = 2048;
/**
 * How long a request waits for a real answer after a line that is not JSON, from a target that has written no JSON yet.
 */
const UNREADABLE_SETTLE_MS = 500;
const UNREADABLE_KEEP = 20;
/** How much of such a line a failure's message quotes. */
const UNREADABLE_SHOWN = 60;
/** Ids of answered requests remembered, to recognise a second answer to one of them. */
const ANSWERED_KEEP = 10_000;

/**
 * The reading half of a connection on which every message of the server arrives in one ordered channel, whichever
 * request it belongs to: stdio's stdout, and the event stream of the deprecated HTTP+SSE transport. Matches each
 * response to the request waiting for it, gives every notification to the requests in flight, has the server's own
 * requests answered, and keeps the rest as strays. The transport writes; this never throws for what the target sends.
 */
export class SingleChannel {
  private readonly pending = new Map<string, Pending>();
  /** Ids we stopped waiting for: a late answer to one of them is recorded but blames no other request. */
  private readonly abandoned = new Set<string>();
  /**
   * Set once the target wrote a line that parses as JSON: from then on, lines that do not are noise next to its
   * messages.
   */
  private heardJson = false;
  /**
   * Lines that were not JSON, written before any that was: an answer in that shape ends the wait for a real one sooner.
   */
  private readonly unreadableLines: string[] = [];
  /** Timed-out requests still listened for during their grace (late-answers.ts), by id. */
  private readonly late = new Map<
    string,
    { started: number; timeoutMs: number; endedOn: LateAnswer['endedOn']; done(answer: LateAnswer | undefined): void }
  >();
  private readonly answered = new Set<string>();
  private readonly strayLog = new StrayLog();
  private responder: ServerRequestResponder | undefined;
  /** Set once the target answered a request twice: nothing it says can be matched to our requests any more. */
  private broken: TransportFailure | undefined;
  private ended: TransportFailure | undefined;

  /** `reply` sends our answer to a request of the server (stdio: a line; HTTP+SSE: a POST). */
  constructor(private readonly reply: (answer: ServerRequestAnswer) => void) {}

  answerServerRequests(responder: ServerRequestResponder): void {
    this.responder = responder;
  }

  /** Why nothing more can be sent and matched (the channel ended, or the target answered a request twice). */
  get unusable(): TransportFailure | undefined {
    return this.ended ?? this.broken;
  }

  get hasEnded(): boolean {
    return this.ended !== undefined;
  }

  strays(): readonly StrayEvent[] {
    return this.strayLog.events;
  }

  /**
   * Waits for the response to `id` (the caller writes the request): resolves with the exchange once it arrives, the
   * timeout runs out, or the request fails otherwise (fail, end).
   */
  await(exchange: Exchange, id: JsonRpcId, timeoutMs: number, started = performance.now()): Promise<Exchange> {
    return new Promise<Exchange>((resolve) => {
      const key = idKey(id);
      // The timeout is decided after one more pass of the event loop's poll phase: if the main thread was blocked
      // (a loaded machine, a synchronous validation), an answer already waiting to be read is read before we give up.
      const timer = setTimeout(
        () =>
          setImmediate(() => {
            if (!this.pending.has(key)) return;
            this.abandoned.add(key);
            this.listenLate(key, exchange, started, timeoutMs, lateGraceMs(timeoutMs));
            this.settle(key, {
              kind: 'timeout',
              message: `no response to id ${JSON.stringify(id)} within ${timeoutMs} ms${callOf(exchange.request)}`,
            });
          }),
        timeoutMs,
      );
      this.pending.set(key, { exchange, started, timeoutMs, timer, resolve });
    });
  }

  /** A subscriptions/listen request (the caller writes it): its messages collect until `stop` or the channel ends. */
  listen(exchange: Exchange, id: JsonRpcId, stop: () => void): ListenState {
    const key = idKey(id);
    const listen = new ListenState(exchange, async () => {
      if (!this.pending.has(key)) return;
      this.pending.delete(key);
      if (!this.ended) stop();
    });
    if (this.ended) {
      exchange.failure = this.ended;
      listen.onEnd();
      return listen;
    }
    this.pending.set(key, { exchange, started: performance.now(), resolve: () => listen.onEnd(), listen });
    return listen;
  }

  /** The request `id` failed before any answer could come (e.g. the POST that carried it was refused). */
  fail(id: JsonRpcId, failure: TransportFailure): void {
    this.settle(idKey(id), failure);
  }

  /** Every request still waiting fails with `failure` (the connection is being closed). */
  failAll(failure: TransportFailure): void {
    for (const key of [...this.pending.keys()]) this.settle(key, failure);
  }

  /** Nothing more will arrive: what waits fails with `failure`, and so does whatever is sent from now on. */
  end(failure: TransportFailure): void {
    this.ended ??= failure;
    this.failAll(this.ended);
    for (const watch of [...this.late.values()]) watch.done(undefined);
  }

  /**
   * Keeps listening for the answer to a request that timed out, for its grace; what comes is that request's late
   * answer.
   */
  private listenLate(
    key: string,
    exchange: Exchange,
    started: number,
    timeoutMs: number,
    graceMs: number,
    endedOn: LateAnswer['endedOn'] = 'timeout',
  ): void {
    const settle = watchLate(exchange);
    const timer = setTimeout(() => done(undefined), graceMs);
    const done = (answer: LateAnswer | undefined) => {
      clearTimeout(timer);
      this.late.delete(key);
      settle(answer);
    };
    this.late.set(key, { started, timeoutMs, endedOn, done });
  }

  /** Text that is no message (a stdout line that is not JSON, an event of another type), kept as evidence. */
  noise(text: string): void {
    const clipped = clip(text);
    this.strayLog.add('non-json', clipped, clipped.length);
  }

  /**
   * A line that is not JSON from a target that has written no JSON yet: what it answers with, perhaps, and never a
   * message of the protocol. A request waiting then waits at most UNREADABLE_SETTLE_MS more for a real answer (one that
   * still comes is its late answer), so a target that only ever writes such lines is not waited on for --timeout per
   * probe.
   */
  private unreadable(text: string): void {
    if (this.heardJson) return;
    if (this.unreadableLines.length < UNREADABLE_KEEP) this.unreadableLines.push(text);
    const count = this.unreadableLines.length;
    for (const [key, p] of this.pending) {
      if (p.listen || p.unreadableTimer) continue;
      p.unreadableTimer = setTimeout(() => {
        if (this.pending.get(key) !== p) return;
        this.abandoned.add(key);
        // A real answer may still come by the request's own deadline and its grace: it is then the late answer.
        const timeoutMs = p.timeoutMs ?? UNREADABLE_SETTLE_MS;
        this.listenLate(
          key,
          p.exchange,
          p.started,
          timeoutMs,
          Math.max(0, p.started + timeoutMs - performance.now()) + lateGraceMs(timeoutMs),
          'unreadable',
        );
        const first = this.unreadableLines[0]!;
        const shown = first.length > UNREADABLE_SHOWN ? `${first.slice(0, UNREADABLE_SHOWN)}…` : first;
        const lines =
          count === 1
            ? '1 line that is not JSON-RPC'
            : `${this.unreadableLines.length} lines that are not JSON-RPC, the first`;
        this.settle(key, {
          kind: 'malformed',
          message:
            `the target wrote ${lines}: \`${shown}\`, and no answer to id ${key} within ` +
            `${UNREADABLE_SETTLE_MS} ms after it`,
        });
      }, UNREADABLE_SETTLE_MS);
    }
  }

  /** A message over the size bound was dropped: the oldest request waiting is blamed. */
  oversized(limit: number, what: string): void {
    this.noise(`${what} exceeded ${limit} bytes and was discarded`);
    this.failOldest({ kind: 'too-large', message: `message larger than ${limit} bytes` });
  }

  /** One message as received (a stdout line, an event's data); `invalidUtf8`: its bytes were not valid UTF-8. */
  receive(text: string, invalidUtf8 = false): void {
    if (jsonNestedDeeperThan(text, MAX_JSON_DEPTH)) {
      this.noise(text);
      this.failOldest({ kind: 'too-deep', message: tooDeepMessage(MAX_JSON_DEPTH) });
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.noise(text);
      this.unreadable(text);
      return;
    }
    this.heardJson = true;
    const mark = (exchange: Exchange) => {
      if (invalidUtf8) exchange.invalidUtf8 = (exchange.invalidUtf8 ?? 0) + 1;
    };
    if (Array.isArray(message)) {
      this.onBatch(message, text.length, mark);
      return;
    }
    if (isObject(message) && 'method' in message) {
      for (const p of this.pending.values()) {
        recordNotification(p.exchange, message, text.length);
        mark(p.exchange);
        p.listen?.onMessage();
      }
      if ('id' in message) this.onServerRequest(message, text.length, invalidUtf8);
      else if (this.pending.size === 0) this.stray('notification', message, text.length, invalidUtf8);
      return;
    }
    const id = isObject(message) ? message.id : undefined;
    const key = id === undefined ? undefined : idKey(id);
    const match = key === undefined ? undefined : this.pending.get(key);
    if (match && key !== undefined) {
      match.exchange.response = message;
      mark(match.exchange);
      this.settle(key);
      this.remember(key);
      return;
    }
    if (key !== undefined && this.answered.has(key)) {
      this.onDuplicate(id, message, text.length, invalidUtf8);
      return;
    }
    const late = key === undefined ? undefined : this.late.get(key);
    if (late && key !== undefined) {
      late.done({
        afterMs: Math.round(performance.now() - late.started),
        timeoutMs: late.timeoutMs,
        endedOn: late.endedOn,
        response: message,
      });
      this.remember(key);
    }
    const inFlight = [...this.pending.entries()].filter(([, p]) => !p.listen);
    if (id === null && isObject(message) && 'error' in message && inFlight.length === 1) {
      // An error the server could not tie to an id answers the only request in flight; checks judge the null id.
      const [onlyKey, only] = inFlight[0]!;
      only.exchange.response = message;
      mark(only.exchange);
      this.settle(onlyKey);
      return;
    }
    this.stray('unknown-id', message, text.length, invalidUtf8);
    if (inFlight.length === 1 && !(key !== undefined && this.abandoned.has(key))) {
      const [onlyKey, only] = inFlight[0]!;
      only.exchange.response = message;
      mark(only.exchange);
      this.settle(onlyKey, {
        kind: 'wrong-id',
        message: `response id ${JSON.stringify(id)} does not match the request id ${JSON.stringify(
          (only.exchange.request as { id?: unknown }).id,
        )}`,
      });
    }
  }

  private failOldest(failure: TransportFailure): void {
    const oldest = [...this.pending.entries()].find(([, p]) => !p.listen);
    if (oldest) this.settle(oldest[0], failure);
  }

  /** A request from the server: answered when the responder has an answer, and kept with it. */
  /**
   * A JSON-RPC batch (2025-03-26): the response, as a whole, of the request waiting for one of the ids its responses
   * carry (a batch we sent is waited for under one of its ids); one that answers no waiting request is a stray.
   */
  private onBatch(batch: unknown[], size: number, mark: (exchange: Exchange) => void): void {
    const keys = batch.flatMap((m) => (isObject(m) && !('method' in m) && 'id' in m ? [idKey(m.id)] : []));
    const key = keys.find((k) => this.pending.has(k) && !this.pending.get(k)!.listen);
    if (key === undefined) {
      this.stray('unknown-id', batch, size);
      return;
    }
    const match = this.pending.get(key)!;
    match.exchange.response = batch;
    mark(match.exchange);
    this.settle(key);
    for (const answered of keys) this.remember(answered);
  }

  private onServerRequest(request: Record<string, unknown>, size: number, invalidUtf8: boolean): void {
    const answer = this.ended ? undefined : this.responder?.(request);
    if (answer) this.reply(answer);
    this.strayLog.add('server-request', request, size, {
      ...(invalidUtf8 ? { invalidUtf8: true as const } : {}),
      ...(answer ? { answer: answer.response } : {}),
    });
  }

  /** A second answer to a request: the target's answers can no longer be trusted to be ours, so the audit stops. */
  private onDuplicate(id: unknown, message: unknown, size: number, invalidUtf8: boolean): void {
    this.stray('unknown-id', message, size, invalidUtf8);
    this.broken ??= {
      kind: 'duplicate-response',
      message: `the target answered the request with id ${JSON.stringify(id)} a second time`,
    };
    for (const [key, p] of [...this.pending.entries()]) if (!p.listen) this.settle(key, this.broken);
  }

  private remember(key: string): void {
    if (this.answered.size >= ANSWERED_KEEP) this.answered.delete(this.answered.values().next().value!);
    this.answered.add(key);
  }

  private settle(key: string, failure?: TransportFailure): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    if (p.timer) clearTimeout(p.timer);
    if (p.unreadableTimer) clearTimeout(p.unreadableTimer);
    p.exchange.durationMs = Math.round((performance.now() - p.started) * 1000) / 1000;
    if (failure) p.exchange.failure = failure;
    if (p.exchange.response !== undefined) p.exchange.answeredSeq = nextSeq();
    p.resolve(p.exchange);
  }

  private stray(kind: StrayEvent['kind'], data: unknown, size: number, invalidUtf8 = false): void {
    this.strayLog.add(kind, data, size, invalidUtf8 ? { invalidUtf8: true } : {});
  }
}

function clip(line: string): string {
  return line.length > RAW_LINE_KEEP ? line.slice(0, RAW_LINE_KEEP) + '…' : line;
}

function idKey(id: unknown): string {
  return JSON.stringify(id) ?? 'undefined';
}
