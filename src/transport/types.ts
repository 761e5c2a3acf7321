import type { JsonRpcId } from '../jsonrpc.js';

/**
 * One request/response round trip as it happened on the wire. This is the unit of evidence:
 * checks attach exchanges to outcomes, reporters print them.
 */
export interface Exchange {
  /** Sequence number within the run, for ordering evidence. */
  seq: number;
  /** ISO timestamp when the request was written. */
  sentAt: string;
  /** Milliseconds from write to the final response (or to the failure). */
  durationMs: number;
  /** The exact message we sent (possibly deliberately malformed). */
  request: unknown;
  /** HTTP only: request headers we sent (values of user-supplied headers are redacted). */
  requestHeaders?: Record<string, string>;
  /** The final JSON-RPC message received for this request, if any. */
  response?: unknown;
  /** HTTP only. */
  status?: number;
  responseHeaders?: Record<string, string>;
  /** HTTP only: the raw body when it was not parseable as JSON/SSE. */
  rawBody?: string;
  /** Notifications that arrived on this request's stream (HTTP SSE) or while it was in flight (stdio). */
  notifications: unknown[];
  /** How many further notifications arrived but were not kept (evidence-caps.ts). */
  notificationsDropped?: number;
  /** Set when no valid response arrived: timeout, target gone, unparseable, wrong id. */
  failure?: TransportFailure;
  /**
   * How many of the JSON messages received for this exchange (its response, the notifications kept with it) were not
   * valid UTF-8 on the wire: a stdio line, an HTTP body or an SSE event whose bytes a strict decoder refuses. They were
   * read with U+FFFD in place of the bad bytes; absent when all were valid (transport.utf8 reads it).
   */
  invalidUtf8?: number;
}

export type TransportFailureKind =
  | 'timeout'
  | 'target-exited'
  | 'connection'
  | 'malformed'
  | 'wrong-id'
  | 'http-status'
  | 'too-large'
  /** Arrays and objects nested deeper than MAX_JSON_DEPTH. */
  | 'too-deep'
  /** The target answered one request twice. */
  | 'duplicate-response'
  /** HTTP 429 that could not be waited out (Retry-After missing, unusable, over 30 s, or a second 429). */
  | 'rate-limited';

export interface TransportFailure {
  kind: TransportFailureKind;
  message: string;
}

/** Anything the transport saw that was not a response to a pending request. */
export interface StrayEvent {
  at: string;
  kind: 'non-json' | 'unknown-id' | 'notification' | 'server-request' | 'stderr';
  /** Parsed message when JSON, else the raw line (truncated). */
  data: unknown;
  /** A JSON message whose bytes were not valid UTF-8 (read with U+FFFD in their place); see Exchange.invalidUtf8. */
  invalidUtf8?: true;
}

export interface SendOptions {
  /** Extra HTTP headers for this request (ignored on stdio). */
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** When true, a missing response is expected (notification). */
  notification?: boolean;
  /** The request may go over any connection of the client (HTTP --http-connections); others use the first. */
  anyConnection?: boolean;
}

export interface Transport {
  /** `snapshot`: answers replayed from a saved tool listing, no target at all. */
  readonly kind: 'stdio' | 'http' | 'snapshot';
  /** Human description of the target for reports (secrets redacted). */
  readonly description: string;
  /** Start the target / check reachability; a second call waits for the first. Throws TargetUnavailableError. */
  start(): Promise<void>;
  /**
   * Send one JSON-RPC message and wait for the response whose id equals `id`.
   * Never throws for target misbehaviour: it resolves with `failure` set. Rejects with BudgetSpentError
   * (request-gate.ts) only when its turn under --max-rps or a Retry-After would come after the run's budget.
   */
  send(message: unknown, id: JsonRpcId | undefined, options?: SendOptions): Promise<Exchange>;
  /**
   * A long-lived request (`subscriptions/listen`): its messages collect in the stream's exchange until close()
   * (stdio: notifications/cancelled; HTTP: the SSE stream is closed). Never throws for target misbehaviour.
   */
  listen?(message: unknown, id: JsonRpcId, options?: SendOptions): Promise<ListenStream>;
  /** HTTP only: the target URL's origin (`scheme://host:port`), e.g. to send the server its own Origin header. */
  readonly origin?: string;
  /** HTTP only: a GET or DELETE to the endpoint (the 2026-07-28 compatibility rules). */
  probeMethod?(method: 'GET' | 'DELETE', headers?: Record<string, string>): Promise<Exchange>;
  /** stdio only: close the target's stdin and wait up to `waitMs` for it to exit by itself (no signal is sent). */
  endInput?(waitMs: number): Promise<InputEnd>;
  /** Everything received that was not a response to a request we were waiting for. */
  strays(): readonly StrayEvent[];
  /** Captured stderr of the target (stdio), truncated. */
  stderr(): string;
  close(): Promise<void>;
}

/** An open `subscriptions/listen` request. */
export interface ListenStream {
  /** `notifications` grows while the stream is open; `response` is set if the server answered or ended it. */
  readonly exchange: Exchange;
  /** True once the server answered the request (an error, or a graceful end) or the stream broke. */
  readonly ended: boolean;
  /** Resolves true as soon as `predicate` holds for the messages so far; false when the wait or the stream ends first. */
  waitFor(predicate: (messages: readonly unknown[]) => boolean, timeoutMs: number): Promise<boolean>;
  /** Ends the subscription from our side and returns the final exchange. */
  close(): Promise<Exchange>;
}
/** What the target did after its stdin was closed. */
export type InputEnd =
  | { kind: 'exited'; afterMs: number; how: string }
  | { kind: 'still-running'; waitedMs: number }
  /** It had exited before its stdin was closed, so nothing was measured. */
  | { kind: 'already-exited'; how: string };

/** Thrown by start() when the target cannot be started or reached at all. */
export class TargetUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetUnavailableError';
  }
}
