import type { Palette } from './color.js';
import { terminalInline } from './text-safety.js';

/** Without a terminal, a line this often while checks keep running without a result. */
export const HEARTBEAT_MS = 10_000;
/** How often progress is looked at: the status line redrawn (its waiting time moves), or the silence measured. */
const TICK_MS = 1_000;
const CLEAR_LINE = '\r\u001b[K';

export interface ProgressOptions {
  stream: NodeJS.WritableStream;
  /** A terminal: one status line rewritten in place. Otherwise a heartbeat line every HEARTBEAT_MS of silence. */
  interactive: boolean;
  paint: Palette;
  /** What the audit waits on the longest, e.g. "tools/call get_time for 12 s"; undefined when nothing is in flight. */
  waitingOn?: () => string | undefined;
  /** For tests: the clock and the timer. */
  now?: () => number;
  every?: (ms: number, tick: () => void) => { stop(): void };
}

export interface Progress {
  started(checkId: string): void;
  finished(checkId: string): void;
  /** Call before writing result lines: the status line is taken away first. */
  beforeWrite(): void;
  /** Call after writing result lines. */
  afterWrite(): void;
  stop(): void;
}

const realTimer = (ms: number, tick: () => void) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};

/** What is running, as shown: at most three ids and a count of the rest. */
function runningText(running: readonly string[]): string {
  const shown = running
    .slice(0, 3)
    .map((id) => terminalInline(id, 80))
    .join(', ');
  return running.length > 3 ? `${shown} and ${running.length - 3} more` : shown;
}

/**
 * Progress for long runs without disturbing the results, which still print in catalog order: on a terminal a status
 * line naming the running checks and the request waited on, cleared before each result; without one a heartbeat
 * line after HEARTBEAT_MS without output while checks are running.
 */
export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const running: string[] = [];
  let lastOutput = now();
  let statusShown = false;
  const status = (): string | undefined => {
    if (running.length === 0) return undefined;
    const waiting = options.waitingOn?.();
    return `… running ${runningText(running)}${waiting ? ` (waiting on ${terminalInline(waiting, 120)})` : ''}`;
  };
  const draw = () => {
    const text = status();
    if (text === undefined) {
      if (statusShown) options.stream.write(CLEAR_LINE);
      statusShown = false;
      return;
    }
    options.stream.write(`${CLEAR_LINE}${options.paint.dim(text)}`);
    statusShown = true;
  };
  const tick = () => {
    if (options.interactive) return draw();
    const text = status();
    if (text === undefined || now() - lastOutput < HEARTBEAT_MS) return;
    options.stream.write(`${text}\n`);
    lastOutput = now();
  };
  const timer = (options.every ?? realTimer)(TICK_MS, tick);
  return {
    started(checkId) {
      running.push(checkId);
      if (options.interactive) draw();
    },
    finished(checkId) {
      const at = running.indexOf(checkId);
      if (at >= 0) running.splice(at, 1);
    },
    beforeWrite() {
      if (statusShown) options.stream.write(CLEAR_LINE);
      statusShown = false;
    },
    afterWrite() {
      lastOutput = now();
      if (options.interactive) draw();
    },
    stop() {
      timer.stop();
      running.length = 0;
      if (statusShown) options.stream.write(CLEAR_LINE);
      statusShown = false;
    },
  };
}

/** The request waited on the longest, as shown in progress lines: "tools/call get_time for 12 s". */
export function longestWait(
  inFlight: readonly { method: string; tool?: string; since: number }[],
  now: number = performance.now(),
): string | undefined {
  if (inFlight.length === 0) return undefined;
  const oldest = inFlight.reduce((a, b) => (b.since < a.since ? b : a));
  return (
    `${oldest.method}${oldest.tool === undefined ? '' : ` ${oldest.tool}`} for ` +
    `${Math.floor((now - oldest.since) / 1000)} s`
  );
}
