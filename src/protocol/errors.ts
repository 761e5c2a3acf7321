import type { Exchange, TransportFailureKind } from '../model/exchange.js';

/** The target stopped answering (timeout, exit, garbage, wrong id): the audit cannot go on. */
export class TargetGoneError extends Error {
  constructor(
    readonly exchange: Exchange,
    message: string,
    /** A timeout while the server may have waited on this request of its own, which the client left unanswered. */
    readonly unansweredRequest?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'TargetGoneError';
  }
}

export const GONE_FAILURES: ReadonlySet<TransportFailureKind> = new Set([
  'timeout',
  'target-exited',
  'connection',
  'malformed',
  'wrong-id',
  'too-large',
  'too-deep',
  'duplicate-response',
  'rate-limited',
]);

/** Gone even for probes that tolerate silence: the target exited, or refused to serve us any further (429). */
export const ALWAYS_GONE_FAILURES: ReadonlySet<TransportFailureKind> = new Set(['target-exited', 'rate-limited']);
