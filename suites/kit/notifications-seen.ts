import { isObject } from '../../src/core/jsonrpc.js';
import { methodOf } from '../../src/runner/result-schemas.js';
import type { Evidence } from '../../src/model/check.js';
import type { Exchange, StrayEvent } from '../../src/model/exchange.js';
import { note } from './outcome.js';

/**
 * One notification the target sent, and where it was recorded: over HTTP the one exchange whose stream carried it;
 * over stdio every request that was in flight when it arrived (one channel carries them all); none when it came while
 * nothing was in flight (a stray).
 */
export interface SeenNotification {
  message: Record<string, unknown>;
  params: Record<string, unknown>;
  holders: readonly Exchange[];
  stray?: StrayEvent;
}

/** Every notification with this method that the audit received, in order of first arrival (strays last). */
export function notificationsSeen(
  exchanges: readonly Exchange[],
  strays: readonly StrayEvent[],
  method: string,
): SeenNotification[] {
  const holders = new Map<Record<string, unknown>, Exchange[]>();
  for (const exchange of exchanges) {
    for (const message of exchange.notifications) {
      if (!isObject(message) || message.method !== method || 'id' in message) continue;
      const list = holders.get(message) ?? [];
      list.push(exchange);
      holders.set(message, list);
    }
  }
  const seen: SeenNotification[] = [...holders].map(([message, list]) => ({
    message,
    params: paramsOf(message),
    holders: list,
  }));
  for (const stray of strays) {
    const message = stray.data;
    if (stray.kind !== 'notification' || !isObject(message) || message.method !== method) continue;
    seen.push({ message, params: paramsOf(message), holders: [], stray });
  }
  return seen;
}

function paramsOf(message: Record<string, unknown>): Record<string, unknown> {
  return isObject(message.params) ? message.params : {};
}

/** The request's `_meta`, or an empty object. */
export function requestMeta(exchange: Exchange): Record<string, unknown> {
  const request = isObject(exchange.request) ? exchange.request : {};
  const params = isObject(request.params) ? request.params : {};
  return isObject(params._meta) ? params._meta : {};
}

export const isListen = (exchange: Exchange): boolean => methodOf(exchange) === 'subscriptions/listen';

/**
 * Evidence for a notification: the exchanges it arrived on, or a note for one that came while nothing was in flight.
 */
export function seenEvidence(seen: SeenNotification): Evidence[] {
  return seen.holders.length > 0
    ? [...seen.holders]
    : [note(`${String(seen.message.method)} received while no request was in flight`, seen.message)];
}

/** A JSON value as a map key that keeps its type ("1" and 1 differ). */
export const valueKey = (value: unknown): string => JSON.stringify(value) ?? 'undefined';
