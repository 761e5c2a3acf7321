import { isObject } from '../jsonrpc.js';
import type { Exchange } from '../model/exchange.js';

/** A call answered in a turn of its own. */
export interface CallInTurn {
  tool: string;
  args: unknown;
  exchange: Exchange;
}

/**
 * Told of everything that runs alone, inside its turn: what the sandbox needs to attribute file changes to the call
 * that made them. `after` is not told of a call whose send threw (the target is gone).
 */
export interface CallObserver {
  before(): Promise<void>;
  /** `call` is undefined for work outside any call (a connection starting). */
  after(call?: CallInTurn): Promise<void>;
}

export interface CallTurnsOptions {
  /** Every call runs alone, read-only or not (a sandboxed audit, whose effects are attributed call by call). */
  allAlone?: boolean;
  observer?: CallObserver;
}

interface Waiter {
  alone: boolean;
  go(): void;
}

/**
 * Whose turn it is to call a tool, over every connection of one audit. A tool not annotated `readOnlyHint: true` may
 * change what the server keeps, so its call runs alone: it waits for the calls in flight and nothing starts before it
 * is answered. Read-only calls overlap one another. Turns are first come, first served, so a call that must run alone
 * is not starved by a stream of read-only ones.
 */
export class CallTurns {
  /** Listed tools by name, and whether each is annotated read-only (the latest listing wins). */
  private readonly readOnly = new Map<string, boolean>();
  /** Lower-cased names of the listed tools that may write: a server that matches names loosely could run one. */
  private readonly writersLoosely = new Set<string>();
  private learned = false;
  private shared = 0;
  private aloneInFlight = false;
  private readonly queue: Waiter[] = [];

  constructor(private readonly options: CallTurnsOptions = {}) {}

  get observer(): CallObserver | undefined {
    return this.options.observer;
  }

  learn(tools: readonly Record<string, unknown>[]): void {
    for (const tool of tools) {
      if (typeof tool.name !== 'string') continue;
      const readOnly = isObject(tool.annotations) && tool.annotations.readOnlyHint === true;
      this.readOnly.set(tool.name, readOnly);
      if (!readOnly) this.writersLoosely.add(tool.name.toLowerCase());
    }
    this.learned = true;
  }

  /**
   * Whether a call of `name` must run alone: every call in a sandbox; else a tool that may write, or any name before
   * the listing is known. A name the listing lacks runs no tool, unless it loosely matches one that may write.
   */
  runsAlone(name: unknown): boolean {
    if (this.options.allAlone || typeof name !== 'string' || !this.learned) return true;
    const readOnly = this.readOnly.get(name);
    return readOnly === undefined ? this.writersLoosely.has(name.toLowerCase()) : !readOnly;
  }

  /** Sends the call in its turn; an observer sees each call that runs alone, before it is sent and once answered. */
  async take(name: unknown, args: unknown, send: () => Promise<Exchange>): Promise<Exchange> {
    const alone = this.runsAlone(name);
    await this.acquire(alone);
    try {
      const observer = alone ? this.options.observer : undefined;
      if (!observer) return await send();
      await observer.before();
      const exchange = await send();
      await observer.after({ tool: String(name), args, exchange });
      return exchange;
    } finally {
      this.release(alone);
    }
  }

  /**
   * Work that may write but is no call (another process of the target starting, and its handshake): in a sandbox it
   * runs alone too, so that what it writes is not put down to a call in flight. Elsewhere it runs at once.
   */
  async outsideCalls<T>(work: () => Promise<T>): Promise<T> {
    if (!this.options.allAlone) return work();
    await this.acquire(true);
    try {
      await this.options.observer?.before();
      const result = await work();
      await this.options.observer?.after();
      return result;
    } finally {
      this.release(true);
    }
  }

  private grantable(alone: boolean): boolean {
    return alone ? this.shared === 0 && !this.aloneInFlight : !this.aloneInFlight;
  }

  private acquire(alone: boolean): Promise<void> {
    if (this.queue.length === 0 && this.grantable(alone)) {
      this.grant(alone);
      return Promise.resolve();
    }
    return new Promise((go) => this.queue.push({ alone, go }));
  }

  private grant(alone: boolean): void {
    if (alone) this.aloneInFlight = true;
    else this.shared += 1;
  }

  private release(alone: boolean): void {
    if (alone) this.aloneInFlight = false;
    else this.shared -= 1;
    while (this.queue.length > 0 && this.grantable(this.queue[0]!.alone)) {
      const next = this.queue.shift()!;
      this.grant(next.alone);
      next.go();
    }
  }
}
