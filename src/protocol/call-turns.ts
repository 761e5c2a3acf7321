import { isObject } from '../core/jsonrpc.js';
import type { Exchange } from '../model/exchange.js';
import { lateAnswer } from '../transport/late-answers.js';
import { CallPace } from './call-pace.js';
import type { CallTimeouts } from '../model/call-timeouts.js';

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
  /**
   * Calls that may overlap at most (--concurrency), adapted to the target's pace (call-pace.ts); no bound when absent.
   */
  maxShared?: number;
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
  private readonly pace: CallPace | undefined;
  /** Calls in flight among others: each learns when another joins it. */
  private readonly inFlight = new Set<{ overlapped: boolean }>();
  /** Exchanges of calls that had another call in flight beside them at some point. */
  private readonly overlappedCalls = new WeakSet<Exchange>();
  private readonly timeouts: CallTimeouts = { amongOthers: {}, answeredAlone: {}, alone: {} };
  /** Calls that timed out and may still be worked on by the server: their late answer (or its grace) is awaited. */
  private readonly abandoned = new Set<Promise<unknown>>();

  constructor(private readonly options: CallTurnsOptions = {}) {
    this.pace = options.maxShared === undefined ? undefined : new CallPace(options.maxShared);
  }

  /** Every call runs alone (a sandboxed audit, whose effects are attributed call by call). */
  get allAlone(): boolean {
    return this.options.allAlone === true;
  }

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

  /**
   * Sends the call in its turn (`alone`: in a turn of its own, whatever the tool); an observer sees each call that runs
   * alone, before it is sent and once answered.
   */
  async take(
    name: unknown,
    args: unknown,
    send: () => Promise<Exchange>,
    alone = this.runsAlone(name),
  ): Promise<Exchange> {
    await this.acquire(alone);
    // Alone means the server is working on nothing else of ours: calls that timed out while this one waited for its
    // turn may still be in its hands.
    if (alone) await this.abandonedSettled();
    const grantedIn = this.pace?.current ?? 0;
    const mark = { overlapped: false };
    if (!alone) {
      // A call the server may still be working on (one that timed out, not yet answered late) crowds this one too.
      if (this.inFlight.size > 0 || this.abandoned.size > 0) mark.overlapped = true;
      for (const other of this.inFlight) other.overlapped = true;
      this.inFlight.add(mark);
    }
    try {
      const observer = alone ? this.options.observer : undefined;
      if (!observer) return this.settled(String(name), await send(), alone, mark.overlapped, grantedIn);
      await observer.before();
      const exchange = await send();
      await observer.after({ tool: String(name), args, exchange });
      return this.settled(String(name), exchange, alone, false, grantedIn);
    } finally {
      this.inFlight.delete(mark);
      this.release(alone);
    }
  }

  /**
   * Whether the call of this exchange had another in flight beside it: a timeout then may be ours (our concurrency).
   */
  overlapped(exchange: Exchange): boolean {
    return this.overlappedCalls.has(exchange);
  }

  /**
   * Resolves once the server is done with the calls that timed out, as far as can be seen: each was answered late, or
   * its grace ran out. A retry alone waits for it, or the server would still be busy with what the audit gave up on.
   */
  async abandonedSettled(): Promise<void> {
    while (this.abandoned.size > 0) await Promise.all([...this.abandoned]);
  }

  /** A call that timed out among others was answered when retried alone. */
  answeredAlone(name: string): void {
    this.timeouts.answeredAlone[name] = (this.timeouts.answeredAlone[name] ?? 0) + 1;
  }

  /** The calls that timed out, and how the pace of calls was adapted; undefined when no call timed out or slowed it. */
  summary(): CallTimeouts | undefined {
    const pace = this.pace?.summary();
    const timedOut = Object.keys(this.timeouts.amongOthers).length + Object.keys(this.timeouts.alone).length > 0;
    if (!timedOut && !pace?.halvings) return undefined;
    return { ...this.timeouts, ...(pace?.halvings ? { pace } : {}) };
  }

  private settled(name: string, exchange: Exchange, alone: boolean, overlapped: boolean, grantedIn: number): Exchange {
    const timedOut = exchange.failure?.kind === 'timeout';
    if (overlapped) this.overlappedCalls.add(exchange);
    if (timedOut) {
      const counts = overlapped ? this.timeouts.amongOthers : this.timeouts.alone;
      counts[name] = (counts[name] ?? 0) + 1;
      const settled: Promise<unknown> = lateAnswer(exchange).then((): void => void this.abandoned.delete(settled));
      this.abandoned.add(settled);
    }
    if (!alone && (timedOut || exchange.response !== undefined))
      this.pace?.record(name, exchange.durationMs, timedOut, grantedIn);
    return exchange;
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
    return alone
      ? this.shared === 0 && !this.aloneInFlight
      : !this.aloneInFlight && this.shared < (this.pace?.limit ?? Infinity);
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
