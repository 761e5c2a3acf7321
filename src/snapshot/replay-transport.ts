import { isObject, type JsonRpcId } from '../core/jsonrpc.js';
import { nextSeq } from '../transport/sequence.js';
import type { SendOptions, Transport } from '../transport/types.js';
import type { Exchange, StrayEvent } from '../model/exchange.js';
import type { Snapshot } from './format.js';

/** Answers discover / initialize / tools/list (by cursor) from a snapshot; anything else was never recorded. */
export class ReplayTransport implements Transport {
  readonly kind = 'snapshot' as const;
  readonly description: string;

  constructor(
    private readonly snapshot: Snapshot,
    file: string,
  ) {
    this.description = file;
  }

  async start(): Promise<void> {}

  async send(message: unknown, id: JsonRpcId | undefined, _options?: SendOptions): Promise<Exchange> {
    const exchange: Exchange = {
      seq: nextSeq(),
      sentAt: new Date().toISOString(),
      durationMs: 0,
      request: message,
      notifications: [],
    };
    const recorded = this.snapshot.exchanges.find((e) => sameQuestion(e.request, message));
    if (!recorded) {
      exchange.failure = { kind: 'connection', message: `the snapshot holds no answer to ${describe(message)}` };
      return exchange;
    }
    exchange.response =
      isObject(recorded.response) && id !== undefined ? { ...recorded.response, id } : recorded.response;
    return exchange;
  }

  strays(): readonly StrayEvent[] {
    return [];
  }

  stderr(): string {
    return '';
  }

  async close(): Promise<void> {}
}

function methodAndCursor(message: unknown): [unknown, unknown] {
  if (!isObject(message)) return [undefined, undefined];
  return [message.method, isObject(message.params) ? message.params.cursor : undefined];
}

function sameQuestion(a: unknown, b: unknown): boolean {
  const [ma, ca] = methodAndCursor(a);
  const [mb, cb] = methodAndCursor(b);
  return ma === mb && ca === cb;
}

function describe(message: unknown): string {
  const [method, cursor] = methodAndCursor(message);
  return `${String(method)}${cursor === undefined ? '' : ` (cursor ${JSON.stringify(cursor)})`}`;
}
