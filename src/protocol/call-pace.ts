import type { PaceSummary } from '../model/call-timeouts.js';

/**
 * A call whose answer took longer than this many times the tool's fastest answer (and STEEP_MIN_MS more) slowed down.
 */
const STEEP_FACTOR = 4;
const STEEP_MIN_MS = 1000;
/** Answers in good time, in a row, before one more call may overlap. */
const GROW_AFTER = 20;

/**
 * Starts at --concurrency calls in flight; halves when a call times out or answers steeply slower than its tool did
 * before, and grows back by one after GROW_AFTER answers in good time. A slowdown is counted once per halving: calls
 * granted before it (already in flight) cannot halve again.
 */
export class CallPace {
  limit: number;
  private lowest: number;
  private halvings = 0;
  private generation = 0;
  private inGoodTime = 0;
  private readonly fastest = new Map<string, number>();

  constructor(private readonly max: number) {
    this.limit = Math.max(1, Math.floor(max));
    this.lowest = this.limit;
  }

  /** The generation a call is granted in: `record` ignores the slowdown of a call granted before the last halving. */
  get current(): number {
    return this.generation;
  }

  record(tool: string, durationMs: number, timedOut: boolean, grantedIn: number): void {
    const fastest = this.fastest.get(tool);
    const steep = fastest !== undefined && durationMs > STEEP_FACTOR * fastest + STEEP_MIN_MS;
    if (!timedOut && (fastest === undefined || durationMs < fastest)) this.fastest.set(tool, durationMs);
    if (timedOut || steep) {
      this.inGoodTime = 0;
      if (grantedIn < this.generation || this.limit === 1) return;
      this.limit = Math.max(1, Math.floor(this.limit / 2));
      this.lowest = Math.min(this.lowest, this.limit);
      this.halvings += 1;
      this.generation += 1;
      return;
    }
    this.inGoodTime += 1;
    if (this.inGoodTime >= GROW_AFTER && this.limit < this.max) {
      this.limit += 1;
      this.inGoodTime = 0;
    }
  }

  summary(): PaceSummary {
    return { max: this.max, lowest: this.lowest, halvings: this.halvings };
  }
}
