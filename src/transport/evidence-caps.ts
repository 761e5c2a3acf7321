import type { Exchange, StrayEvent } from '../model/exchange.js';
import { nextSeq } from './sequence.js';

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

/** Stray messages kept per connection, and their total text length: later ones of a flood are dropped. */
const STRAY_KEEP = 1000;
const STRAY_CHARS_KEEP = 8 * 1024 * 1024;

/** What a connection received outside the exchanges it was waiting for (Transport.strays), within the caps. */
export class StrayLog {
  readonly events: StrayEvent[] = [];
  private chars = 0;

  /** `size` is the message's text length; `extra` sets StrayEvent.invalidUtf8 or StrayEvent.answer. */
  add(
    kind: StrayEvent['kind'],
    data: unknown,
    size: number,
    extra: Pick<StrayEvent, 'invalidUtf8' | 'answer'> = {},
  ): void {
    if (this.events.length >= STRAY_KEEP || this.chars + size > STRAY_CHARS_KEEP) return;
    this.chars += size;
    this.events.push({ at: new Date().toISOString(), seq: nextSeq(), kind, data, ...extra });
  }
}
