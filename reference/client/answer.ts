import { errorOf, isObject, type JsonRpcId, type Received } from '../../src/core/jsonrpc.js';

/**
 * Picks the response answering `id` among received messages: the one carrying that id, else an error
 * response without a usable id (a server that could not read the request's id answers with `id: null`).
 */
export class AnswerPicker {
  private fallback: Received | undefined;

  constructor(private readonly id: JsonRpcId) {}

  /** True when `message` is the answer itself. */
  offer(message: unknown): message is Received {
    if (!isObject(message) || 'method' in message) return false;
    if (sameId(message.id, this.id)) return true;
    if ((message.id === null || message.id === undefined) && errorOf(message) && !this.fallback)
      this.fallback = message;
    return false;
  }

  idless(): Received | undefined {
    return this.fallback;
  }
}

export function sameId(received: unknown, id: JsonRpcId): boolean {
  return typeof received === typeof id && received === id;
}

export function idKey(id: unknown): string {
  return JSON.stringify(id) ?? 'undefined';
}
