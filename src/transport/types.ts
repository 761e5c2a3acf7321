import type { JsonRpcId } from '../core/jsonrpc.js';
import type { Exchange, StrayEvent } from '../model/exchange.js';

export interface SendOptions {
  /** Extra HTTP headers for this request (ignored on stdio). */
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** When true, a missing response is expected (notification). */
  notification?: boolean;
  /**
   * The request may go over any connection of the client (Streamable HTTP, --http-connections); others use the first.
   * Set for a request whose answer is judged alone, never for one whose meaning depends on what the same connection
   * carried before (list walks, a retry carrying state, a probe of per-connection context).
   */
  anyConnection?: boolean;
}

export interface Transport {
  /**
   * `http`: Streamable HTTP; `http+sse`: the deprecated HTTP with SSE transport of 2024-11-05 (http-sse.ts), which a
   * `--url` target turns out to speak when it refuses the initialize POST (fallBackToHttpSse); `snapshot`: answers
   * replayed from a saved tool listing, no target at all.
   */
  readonly kind: 'stdio' | 'http' | 'http+sse' | 'snapshot';
  /** Human description of the target for reports (secrets redacted). */
  readonly description: string;
  /** HTTP only: the kept-alive connections the audit's requests go over (over HTTP+SSE, its POST connections). */
  readonly connectionCount?: number;
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
  /**
   * Who answers the requests the server sends us (set once, by the protocol client). The transport sends each answer
   * back (stdio: a line; HTTP: a POST of its own) and records the request as a `server-request` stray with its answer.
   * Without a responder, or when it declines, the request goes unanswered.
   */
  answerServerRequests?(responder: ServerRequestResponder): void;
  /**
   * Requests sent before the target wrote anything get `ms` more than their timeout: a process still starting (a
   * heavy runtime, a loaded machine) is not slow to answer. For the audit's other connections, whose first request is
   * a check's, not a negotiation that waits for late answers.
   */
  allowStartup?(ms: number): void;
  /**
   * HTTP, `initialize` wire: opens the GET stream on which the server may send requests and notifications of its own
   * (2025-11-25 basic/transports § Listening for Messages from the Server); what arrives there is recorded as strays.
   * Resolves once the stream is open or refused, or after a short wait (it may still open later); never rejects.
   */
  openServerStream?(headers: Record<string, string>): Promise<void>;
  /**
   * The GET of openServerStream as an exchange (no body kept): its status and response headers once they came, or its
   * failure; undefined when none was sent. Read once the checks are done: a server may hold the headers back for long.
   */
  serverStreamAnswer?(): Exchange | undefined;
  /**
   * Streamable HTTP: the POSTs that carried our answers to the server's requests, each an exchange whose request is the
   * answer (status, headers and at most 4 KiB of the body once they came); bounded, oldest first.
   */
  answerPosts?(): readonly Exchange[];
  /**
   * Streamable HTTP, after the target refused the initialize POST with 404 or 405: tries the deprecated HTTP+SSE
   * transport at the same URL (2025-03-26 basic/transports § Backwards Compatibility: a GET whose event stream starts
   * with an `endpoint` event, on the target's origin). When found, every later message goes over it (`kind` becomes
   * `http+sse`); `why` says what the GET found either way. Never rejects for what the target does.
   */
  fallBackToHttpSse?(): Promise<{ found: boolean; why: string }>;
  /** Everything received that was not a response to a request we were waiting for. */
  strays(): readonly StrayEvent[];
  /** Captured stderr of the target (stdio), truncated. */
  stderr(): string;
  close(): Promise<void>;
}

/** The client's answer to a request the server sent it, and (HTTP) the headers to POST it with. */
export interface ServerRequestAnswer {
  response: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * Decides the answer to a request the server sent (a message with a method and an id); undefined leaves it unanswered.
 */
export type ServerRequestResponder = (request: Record<string, unknown>) => ServerRequestAnswer | undefined;

/** An open `subscriptions/listen` request. */
export interface ListenStream {
  /** `notifications` grows while the stream is open; `response` is set if the server answered or ended it. */
  readonly exchange: Exchange;
  /** True once the server answered the request (an error, or a graceful end) or the stream broke. */
  readonly ended: boolean;
  /**
   * Resolves true as soon as `predicate` holds for the messages so far; false when the wait or the stream ends first.
   */
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

/**
 * The target was never running or reachable (a command that cannot be spawned, a URL refused or unresolvable): nothing
 * offered in a negotiation could change that, so `--revisions` offers no further revision.
 */
export class TargetNotStartedError extends TargetUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'TargetNotStartedError';
  }
}
