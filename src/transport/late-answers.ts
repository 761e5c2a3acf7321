import type { Exchange } from '../model/exchange.js';

/** An answer that came after the request's --timeout, while the transport still listened for it. */
export interface LateAnswer {
  /** Milliseconds from sending the request to its answer. */
  afterMs: number;
  /** The time the request was given. */
  timeoutMs: number;
  /**
   * What the wait ended on: --timeout, or lines that were not JSON where the answer was expected (single-channel.ts).
   */
  endedOn: 'timeout' | 'unreadable';
  response: unknown;
}

/**
 * How long a transport keeps listening for the answer to a request it stopped waiting for: an answer after --timeout is
 * late, not missing, and a verdict must not say it never came.
 */
export function lateGraceMs(timeoutMs: number): number {
  return Math.min(Math.max(timeoutMs, LATE_GRACE_MIN_MS), LATE_GRACE_MAX_MS);
}
const LATE_GRACE_MIN_MS = 2000;
const LATE_GRACE_MAX_MS = 10_000;

interface Watch {
  settled: Promise<LateAnswer | undefined>;
  answer?: LateAnswer;
}

/**
 * Timed-out exchanges whose late answer is still listened for, or came (module-level: exchanges are unique objects).
 */
const watches = new WeakMap<Exchange, Watch>();

/**
 * Called by a transport when it stops waiting for `exchange`'s answer yet keeps listening: the function returned
 * settles the watch with the answer that came late, or with undefined once the grace (or the connection) ends.
 */
export function watchLate(exchange: Exchange): (answer: LateAnswer | undefined) => void {
  let resolve!: (answer: LateAnswer | undefined) => void;
  const watch: Watch = { settled: new Promise((r) => (resolve = r)) };
  watches.set(exchange, watch);
  return (answer) => {
    if (answer) watch.answer = answer;
    resolve(answer);
  };
}

/** The late answer to a timed-out exchange, once its grace is over (undefined at once if nothing listens for one). */
export async function lateAnswer(exchange: Exchange): Promise<LateAnswer | undefined> {
  return watches.get(exchange)?.settled;
}

/** The late answer that has come so far, without waiting. */
export function lateAnswerSoFar(exchange: Exchange): LateAnswer | undefined {
  return watches.get(exchange)?.answer;
}

/**
 * Names the tool of a tools/call in a message about its request (" (a call of tool \"x\")"); empty for other requests.
 */
export function callOf(request: unknown): string {
  const r = request as { method?: unknown; params?: { name?: unknown } } | undefined;
  if (r?.method !== 'tools/call' || typeof r.params?.name !== 'string') return '';
  return ` (a call of tool ${JSON.stringify(r.params.name.slice(0, 100))})`;
}
