import type { Exchange } from '../model/exchange.js';

/** Notifications kept per exchange; later ones are only counted (Exchange.notificationsDropped). */
export const MAX_NOTIFICATIONS_KEPT = 1000;
/** Serialized size of the notifications kept per exchange. */
export const MAX_NOTIFICATION_BYTES_KEPT = 8 * 1024 * 1024;

const keptBytes = new WeakMap<Exchange, number>();

/**
 * Records a notification that arrived on (or during) an exchange, within the caps: a target that floods us keeps
 * the first ones as evidence and a count of the rest, never an unbounded list. `size` is the message's text length.
 */
export function recordNotification(exchange: Exchange, message: unknown, size: number): void {
  const bytes = keptBytes.get(exchange) ?? 0;
  if (exchange.notifications.length < MAX_NOTIFICATIONS_KEPT && bytes + size <= MAX_NOTIFICATION_BYTES_KEPT) {
    exchange.notifications.push(message);
    keptBytes.set(exchange, bytes + size);
  } else {
    exchange.notificationsDropped = (exchange.notificationsDropped ?? 0) + 1;
  }
}
