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

/**
 * --revisions: the target does not take the revision offered (it answered another version, or refused): that revision
 * is reported as not supported, with what the target answered, and is not audited under another one.
 */
export class RevisionRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RevisionRefusedError';
  }
}
