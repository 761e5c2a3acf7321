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
  /** stdio: the response's place in the run's sequence (see `seq`), so that it orders against what else arrived. */
  answeredSeq?: number;
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
  /** Its place in the run's sequence (see Exchange.seq): after every request sent before it arrived. */
  seq?: number;
  kind: 'non-json' | 'unknown-id' | 'notification' | 'server-request' | 'stderr';
  /** Parsed message when JSON, else the raw line (truncated). */
  data: unknown;
  /** A JSON message whose bytes were not valid UTF-8 (read with U+FFFD in their place); see Exchange.invalidUtf8. */
  invalidUtf8?: true;
  /** A `server-request`: the response the client sent back; absent when it was left unanswered. */
  answer?: unknown;
}
