/** Thrown when a request would have to wait past the run's --max-duration budget for its turn. */
export class BudgetSpentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetSpentError';
  }
}

export interface RequestGateOptions {
  /** Requests per second over every connection of the run; fractional allowed; absent = no cap. */
  maxRps?: number;
  /** Epoch ms when the run's budget ends: no request waits beyond it. */
  deadline?: number;
}

/**
 * The one door every write to the target goes through, shared by all connections of a run: it spaces writes
 * 1/maxRps seconds apart (first come, first served) and holds everyone back while a server's Retry-After runs.
 * Waiting here is not part of any request's timeout: transports start their clocks after acquire() returns.
 */
export class RequestGate {
  private readonly intervalMs: number;
  private nextSlot = 0;
  private holdUntil = 0;

  constructor(private readonly options: RequestGateOptions = {}) {
    const { maxRps } = options;
    if (maxRps !== undefined && !(Number.isFinite(maxRps) && maxRps > 0)) throw new RangeError(`maxRps must be a positive number, got ${maxRps}`);
    this.intervalMs = maxRps === undefined ? 0 : 1000 / maxRps;
  }

  get maxRps(): number | undefined {
    return this.options.maxRps;
  }

  /** Resolves when this request may be written; rejects with BudgetSpentError when its turn comes after the deadline. */
  async acquire(): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot, this.holdUntil);
    const deadline = this.options.deadline;
    if (slot > now && deadline !== undefined && slot > deadline) throw new BudgetSpentError(this.whyLate(slot, deadline));
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await new Promise<void>((resolve) => setTimeout(resolve, slot - now));
  }

  /** The server asked us to back off (429 Retry-After): nobody writes before `ms` from now. */
  holdOff(ms: number): void {
    this.holdUntil = Math.max(this.holdUntil, Date.now() + ms);
  }

  private whyLate(slot: number, deadline: number): string {
    const cause =
      slot === this.holdUntil ? "the server's Retry-After" : `--max-rps ${this.options.maxRps} (one request every ${formatMs(this.intervalMs)})`;
    return `the --max-duration budget ends before the next request could be sent: it would have to wait ${formatMs(slot - Date.now())} for ${cause}, ${formatMs(slot - deadline)} past the budget`;
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}
