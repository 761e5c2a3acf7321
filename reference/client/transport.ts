import type { JsonRpcId, Received } from '../../src/core/jsonrpc.js';

/** One message as it goes on the wire. */
export interface Outgoing {
  /** The JSON-RPC message: one line over stdio (the newline is added there), the POST body over HTTP. */
  bytes: Uint8Array;
  /** HTTP request headers; stdio has no header layer and ignores them. */
  headers: Record<string, string>;
  /** HTTP: the method, when a defect uses another than POST. */
  httpMethod?: string;
}

export interface Transport {
  readonly kind: 'http' | 'stdio';
  /** Sends a request and resolves with the JSON-RPC response that answers `id`. Rejects with RequestFailure. */
  request(message: Outgoing, id: JsonRpcId, signal: AbortSignal): Promise<Received>;
  /** Sends a message that gets no JSON-RPC answer (a notification, a response); failures are only logged. */
  send(message: Outgoing): Promise<void>;
  /**
   * Opens a `subscriptions/listen` stream: `onNotification` sees every notification of subscription `id`; the returned
   * function ends it (HTTP: the stream is closed; stdio: notifications/cancelled).
   */
  listen(message: Outgoing, id: JsonRpcId, onNotification: (message: Received) => void): () => Promise<void>;
  close(): Promise<void>;
}

export type FailureKind = 'unreachable' | 'timeout' | 'invalid-response';

export class RequestFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }
}

export function timedOut(): RequestFailure {
  return new RequestFailure('timeout', 'request timed out: no answer within the call timeout');
}
