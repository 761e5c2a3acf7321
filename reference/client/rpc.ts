import type { JsonRpcId, Received } from '../../src/core/jsonrpc.js';
import { callTimeoutMs } from './constants.js';
import type { Defects } from './defects/active.js';
import type { RequestMessage, RequestRules } from './defects/seams/session.js';
import { standardHeaders } from './http-headers.js';
import { RequestIds } from './request-ids.js';
import { RequestFailure, type Transport } from './transport.js';
import { jsonBytes, type WireEncoder } from './wire.js';

export interface Answer {
  id: JsonRpcId;
  response: Received;
}

export interface RequestOptions {
  /** The id to use instead of a fresh one (only defects pass one). */
  id?: JsonRpcId;
  /** `Mcp-Param-*` headers (HTTP). */
  paramHeaders?: Record<string, string>;
  wire?: WireEncoder;
  /** HTTP: another method than POST (only defects pass one). */
  httpMethod?: string;
}

/** Requests with fresh ids and a timeout, and the messages that expect no answer. */
export class Rpc {
  readonly ids = new RequestIds();
  private readonly rules: RequestRules = { timeoutMs: callTimeoutMs(), cancelsOnTimeout: true };

  constructor(
    private readonly transport: Transport,
    private readonly defects: Defects,
  ) {
    defects.at.requestRules(this.rules);
  }

  get kind(): Transport['kind'] {
    return this.transport.kind;
  }

  async request(method: string, params: Record<string, unknown>, options: RequestOptions = {}): Promise<Answer> {
    const id = options.id ?? this.ids.next();
    const message = requestMessage({ jsonrpc: '2.0', id, method, params }, this.defects);
    const headers = { ...standardHeaders(method, params.name, this.defects), ...options.paramHeaders };
    const bytes = (options.wire ?? jsonBytes)(message);
    try {
      const response = await this.transport.request(
        { bytes, headers, ...(options.httpMethod ? { httpMethod: options.httpMethod } : {}) },
        id,
        AbortSignal.timeout(this.rules.timeoutMs),
      );
      return { id, response };
    } catch (error) {
      if (
        error instanceof RequestFailure &&
        error.kind === 'timeout' &&
        this.transport.kind === 'stdio' &&
        this.rules.cancelsOnTimeout
      ) {
        await this.send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'timed out' },
        });
      }
      throw error;
    }
  }

  /**
   * Sends a message that gets no answer: a notification, or (as a defect) a response or an id-carrying notification.
   */
  async send(message: Record<string, unknown>): Promise<void> {
    const method = typeof message.method === 'string' ? message.method : undefined;
    const params = message.params as Record<string, unknown> | undefined;
    await this.transport.send({
      bytes: jsonBytes(message),
      headers: standardHeaders(method, params?.name, this.defects),
    });
  }

  /** Opens a `subscriptions/listen` stream for `notifications` (a filter); the returned function ends it. */
  listen(params: Record<string, unknown>, onNotification: (message: Received) => void): () => Promise<void> {
    const id = this.ids.next();
    const message = { jsonrpc: '2.0', id, method: 'subscriptions/listen', params };
    return this.transport.listen(
      { bytes: jsonBytes(message), headers: standardHeaders('subscriptions/listen', undefined, this.defects) },
      id,
      onNotification,
    );
  }

  /** Writes bytes that are not an MCP message at all (only defects do). */
  async sendRaw(bytes: Uint8Array): Promise<void> {
    await this.transport.send({ bytes, headers: standardHeaders(undefined, undefined, this.defects) });
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** A request as it is sent: a copy of `message` (its params and `_meta` too), as the hooks leave it. */
function requestMessage(message: RequestMessage, defects: Defects): RequestMessage {
  const meta = message.params._meta as Record<string, unknown> | undefined;
  const params = meta === undefined ? { ...message.params } : { ...message.params, _meta: { ...meta } };
  const sent = { ...message, params };
  defects.at.requestMessage(sent);
  return sent;
}
