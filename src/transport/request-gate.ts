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

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * The one door every write to the target goes through, shared by all connections of a run: it lets writes through
 * one at a time, at least 1/maxRps seconds after the previous one actually went (first come, first served, so a
 * busy event loop cannot release a burst), and holds everyone back while a server's Retry-After runs.
 * Waiting here is not part of any request's timeout: transports start their clocks after acquire() returns.
 */
export class RequestGate {
  private readonly intervalMs: number;
  private readonly queue: Waiter[] = [];
  private lastRelease = Number.NEGATIVE_INFINITY;
  private holdUntil = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RequestGateOptions = {}) {
    const { maxRps } = options;
    if (maxRps !== undefined && !(Number.isFinite(maxRps) && maxRps > 0))
      throw new RangeError(`maxRps must be a positive number, got ${maxRps}`);
    this.intervalMs = maxRps === undefined ? 0 : 1000 / maxRps;
  }

  get maxRps(): number | undefined {
    return this.options.maxRps;
  }

  /**
   * Resolves when this request may be written. Rejects with BudgetSpentError, at once, when its turn would come after
   * the deadline, or when the deadline passed while it waited.
   */
  acquire(): Promise<void> {
    const now = Date.now();
    if (this.queue.length === 0 && this.readyAt() <= now) {
      this.lastRelease = now;
      return Promise.resolve();
    }
    const turn = Math.max(now, this.readyAt()) + this.queue.length * this.intervalMs;
    const deadline = this.options.deadline;
    if (deadline !== undefined && turn > deadline)
      return Promise.reject(new BudgetSpentError(this.whyLate(turn, now, deadline)));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.schedule();
    });
  }

  /** The server asked us to back off (429 Retry-After): nobody writes before `ms` from now. */
  holdOff(ms: number): void {
    this.holdUntil = Math.max(this.holdUntil, Date.now() + ms);
  }

  private readyAt(): number {
    return Math.max(this.lastRelease + this.intervalMs, this.holdUntil);
  }

  private schedule(): void {
    if (this.timer !== undefined || this.queue.length === 0) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.releaseDue();
      },
      Math.max(0, this.readyAt() - Date.now()),
    );
  }

  private releaseDue(): void {
    const now = Date.now();
    const deadline = this.options.deadline;
    while (this.queue.length > 0 && this.readyAt() <= now) {
      const waiter = this.queue.shift()!;
      if (deadline !== undefined && now > deadline) {
        waiter.reject(
          new BudgetSpentError(
            `the --max-duration budget was spent while a request waited for its turn (${this.cause()})`,
          ),
        );
        continue;
      }
      this.lastRelease = now;
      waiter.resolve();
    }
    this.schedule();
  }

  private cause(): string {
    return this.holdUntil > this.lastRelease + this.intervalMs
      ? "the server's Retry-After"
      : `--max-rps ${this.options.maxRps} (one request every ${formatMs(this.intervalMs)})`;
  }

  private whyLate(turn: number, now: number, deadline: number): string {
    return (
      `the --max-duration budget ends before the next request could be sent: it would have to wait ` +
      `${formatMs(turn - now)} for ${this.cause()}, ${formatMs(turn - deadline)} past the budget`
    );
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}
