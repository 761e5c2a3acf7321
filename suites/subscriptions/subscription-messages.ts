import {
  type CheckContext,
  errorOf,
  type Exchange,
  isInitializeRevision,
  isObject,
  type JsonRpcId,
  type ListenStream,
} from '../kit/index.js';

export const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
export const LIST_CHANGED = 'notifications/tools/list_changed';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export function listenId(stream: ListenStream): JsonRpcId {
  return (stream.exchange.request as { id: JsonRpcId }).id;
}

export function isMethod(message: unknown, method: string): boolean {
  return isObject(message) && message.method === method;
}

/** params._meta["io.modelcontextprotocol/subscriptionId"], or undefined. */
export function tagOf(message: unknown): unknown {
  if (!isObject(message) || !isObject(message.params) || !isObject(message.params._meta)) return undefined;
  return message.params._meta[SUBSCRIPTION_ID];
}

/**
 * `exact`: the same JSON value (what the spec requires). `loose`: the same once both are written as strings, which
 * correlates a wrongly typed tag with its subscription so that one mistake is reported once, by the check about tags.
 */
export function sameTag(tag: unknown, id: JsonRpcId, how: 'exact' | 'loose'): boolean {
  if (tag === id) return true;
  return how === 'loose' && (typeof tag === 'string' || typeof tag === 'number') && String(tag) === String(id);
}

export function taggedFor(messages: readonly unknown[], id: JsonRpcId, how: 'exact' | 'loose'): unknown[] {
  return messages.filter((m) => sameTag(tagOf(m), id, how));
}

export function describeTag(tag: unknown): string {
  return tag === undefined ? 'no subscriptionId' : `subscriptionId ${JSON.stringify(tag)}`;
}

/** Why a listen stream did not work at all (an error answer, an HTTP failure), or undefined. */
export function listenFailure(exchange: Exchange): string | undefined {
  const error = errorOf(exchange.response);
  if (error) return `subscriptions/listen was answered with error ${String(error.code)} (${String(error.message)})`;
  if (exchange.status !== undefined && (exchange.status < 200 || exchange.status >= 300)) {
    return `subscriptions/listen was answered with HTTP ${exchange.status}`;
  }
  if (exchange.failure) return `subscriptions/listen failed: ${exchange.failure.message}`;
  return undefined;
}

/**
 * Why list_changed notifications (on subscriptions, or on the session of the initialize wire) cannot be examined on
 * this target, or undefined when they can.
 */
export async function listenPrecondition(ctx: CheckContext): Promise<string | undefined> {
  const { capabilities } = await ctx.capabilities();
  const tools = capabilities && isObject(capabilities.tools) ? capabilities.tools : undefined;
  if (tools?.listChanged !== true) {
    const owed = isInitializeRevision(ctx.revision)
      ? 'need not send notifications/tools/list_changed'
      : 'need not offer tools-list subscriptions';
    return `the server does not declare capabilities.tools.listChanged: true, so it ${owed}`;
  }
  return undefined;
}
