import type { Revision } from '../core/revision.js';

/**
 * What client mode sees of the client under test: every message the scripted server received (with the HTTP request
 * around it, or the stdio line), what it answered, what the driver printed, and what the canaries caught. Client
 * checks judge this record after the client has exited; nothing in it is trusted.
 */
export interface SeenMessage {
  /** Order of arrival over the whole audit (over stdio, in the order the server processes reported them). */
  seq: number;
  /** ISO time of arrival. */
  at: string;
  /** Milliseconds since the audit started, at arrival and when the scripted server's answer was finished. */
  t: number;
  answeredT?: number;
  transport: 'http' | 'stdio';
  /** Which connection carried it: `stdio process <pid>` (the client may start several), `http client port <port>`. */
  connection: string;
  /** The JSON value of the HTTP body or stdio line; absent when it was not JSON (see `raw`). */
  message?: unknown;
  /** The text as received (truncated), when it was not JSON. */
  raw?: string;
  /** The bytes were not valid UTF-8 (read with U+FFFD in place of the bad bytes). */
  invalidUtf8?: true;
  /** HTTP only: the request line and headers (names lower-cased; a repeated header's values joined with ", "). */
  http?: { method: string; path: string; headers: Record<string, string> };
  /** HTTP: when the client closed the response stream of a late answer before it came (its cancellation signal). */
  abandonedT?: number;
  /** What the scripted server answered (an HTTP status with its JSON body; over stdio only the body). */
  reply?: { status?: number; body?: unknown; headers?: Record<string, string> };
}

/** A notification the scripted server sent on its own (on a listen stream). */
export interface SentNotification {
  at: string;
  /** Milliseconds since the audit started. */
  t: number;
  connection: string;
  message: Record<string, unknown>;
}

/** A read the client should never have made: a loopback canary named in a `$ref`. */
export interface CanaryHit {
  at: string;
  kind: 'network' | 'file';
  /** The request line the canary received, or the file it guards. */
  detail: string;
}

/** One line the driver printed on stdout, per the driver contract (`{"tool": …, "result" | "error": …}`). */
export interface DriverLine {
  tool: string;
  outcome: 'result' | 'error';
  value: unknown;
}

/** How the client process ended. */
export interface ClientExit {
  /**
   * `exited`: it ended by itself; `timed-out`: killed when the --max-duration budget ran out; `not-started`: spawn
   * failed.
   */
  kind: 'exited' | 'timed-out' | 'not-started';
  code?: number | null;
  signal?: string | null;
  message?: string;
}

export interface ClientObservations {
  transport: 'http' | 'stdio';
  /** The revision the checks judge: the one agreed in the client's `initialize`, else 2026-07-28. */
  wire: Revision;
  /** How that revision was agreed, for the report. */
  wireReason: string;
  /** The tools the scripted server offered, by name (definitions as listed). */
  offered: Record<string, Record<string, unknown>>;
  messages: SeenMessage[];
  /** Messages received past MAX_SEEN_MESSAGES: counted, not kept or judged. */
  messagesNotKept: number;
  /** What the scripted server sent on its own: acknowledgments and change notifications on listen streams. */
  sentNotifications: SentNotification[];
  canaryHits: CanaryHit[];
  driverLines: DriverLine[];
  /** How many `{"listed": n}` lines the driver printed: how often it listed the tools (an optional contract step). */
  listings: number;
  /** Stdout lines that were not driver lines (first few, truncated). */
  stdoutNoise: string[];
  /** The last lines the client wrote to stderr. */
  stderrTail: string[];
  exit: ClientExit;
  durationMs: number;
}
