import type { ListenStream } from './types.js';
import type { Exchange } from '../model/exchange.js';

interface Waiter {
  predicate(messages: readonly unknown[]): boolean;
  resolve(met: boolean): void;
  timer: NodeJS.Timeout;
}

/** The transport-independent half of a ListenStream: message collection and waiting. */
export class ListenState implements ListenStream {
  private readonly waiters = new Set<Waiter>();
  private closing: Promise<Exchange> | undefined;
  private hasEnded = false;
  private readonly startedAt = performance.now();

  constructor(
    readonly exchange: Exchange,
    private readonly stop: () => Promise<void>,
  ) {}

  get ended(): boolean {
    return this.hasEnded;
  }

  /** The transport saw a message for this stream (a notification, or the response). */
  onMessage(): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(this.exchange.notifications)) this.finishWait(waiter, true);
    }
  }

  /** The server answered, or the stream broke: nothing more will arrive. */
  onEnd(): void {
    if (this.hasEnded) return;
    this.hasEnded = true;
    this.exchange.durationMs = Math.round(performance.now() - this.startedAt);
    for (const waiter of [...this.waiters]) this.finishWait(waiter, waiter.predicate(this.exchange.notifications));
  }

  waitFor(predicate: (messages: readonly unknown[]) => boolean, timeoutMs: number): Promise<boolean> {
    if (predicate(this.exchange.notifications)) return Promise.resolve(true);
    if (this.hasEnded) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = { predicate, resolve, timer: setTimeout(() => this.finishWait(waiter, false), timeoutMs) };
      this.waiters.add(waiter);
    });
  }

  close(): Promise<Exchange> {
    this.closing ??= this.stop().then(() => {
      this.onEnd();
      return this.exchange;
    });
    return this.closing;
  }

  private finishWait(waiter: Waiter, met: boolean): void {
    if (!this.waiters.delete(waiter)) return;
    clearTimeout(waiter.timer);
    waiter.resolve(met);
  }
}
