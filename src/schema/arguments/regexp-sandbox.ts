import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { shorten } from '../tool-schema/shorten.js';

/** The longest a target-controlled `pattern` may run on one string before we give up on it. */
export const REGEXP_DEADLINE_MS = 250;
/** The worker's start-up is waited for once, outside the per-test deadline. */
const WORKER_START_MS = 10_000;

export class RegExpTimeoutError extends Error {
  constructor(pattern: string, length: number) {
    super(
      `pattern ${shorten(pattern, 80)} ran longer than ${REGEXP_DEADLINE_MS} ms on a ${length}-character ` +
        `string (not decided)`,
    );
    this.name = 'RegExpTimeoutError';
  }
}

// Plain CommonJS run by the worker: it compiles (and caches) each pattern and tests one string per message.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const flag = new Int32Array(workerData.signal);
const cache = new Map();
const done = () => { Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); };
workerData.port.on('message', ({ pattern, flags, text }) => {
  let reply;
  try {
    const key = flags + '/' + pattern;
    let re = cache.get(key);
    if (re === undefined) { re = new RegExp(pattern, flags); cache.set(key, re); }
    re.lastIndex = 0;
    reply = { matched: re.test(text) };
  } catch (error) {
    reply = { error: String(error && error.message ? error.message : error) };
  }
  workerData.port.postMessage(reply);
  done();
});
done();
`;

interface Sandbox {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  started: boolean;
}

let sandbox: Sandbox | undefined;
/**
 * For each pattern that ran past the deadline, the shortest string it did so on: it is not run on one as long again.
 */
const overrun = new Map<string, number>();

function openSandbox(): Sandbox {
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, signal }, transferList: [port2] });
  worker.unref();
  port1.unref();
  return { worker, port: port1, flag: new Int32Array(signal), started: false };
}

/** Forgets which patterns overran: the next audit in this process times each one again, as a fresh process would. */
export function forgetRegExpOverruns(): void {
  overrun.clear();
}

/** Starts the worker without waiting for it, so that the first pattern test rarely has to wait for its start-up. */
export function warmUpRegExpSandbox(): void {
  sandbox ??= openSandbox();
}

/** Waits (once per worker) for the worker to run, which it signals by setting the flag. */
function started(box: Sandbox): Sandbox {
  if (box.started) return box;
  if (Atomics.wait(box.flag, 0, 0, WORKER_START_MS) === 'timed-out')
    throw new Error('the regular-expression worker did not start');
  box.started = true;
  return box;
}

/**
 * `new RegExp(pattern, flags).test(text)` for an untrusted pattern, run on a worker thread and given up after
 * REGEXP_DEADLINE_MS: the main thread waits at most that long, whatever the pattern (polynomial backtracking such as
 * `a*a*a*a*b` escapes any static guard). Throws RegExpTimeoutError when the deadline passed, and what RegExp throws.
 */
export function testWithDeadline(pattern: string, flags: string, text: string): boolean {
  const key = `${flags}/${pattern}`;
  if (text.length >= (overrun.get(key) ?? Infinity)) throw new RegExpTimeoutError(pattern, text.length);
  const box = started((sandbox ??= openSandbox()));
  Atomics.store(box.flag, 0, 0);
  box.port.postMessage({ pattern, flags, text });
  if (Atomics.wait(box.flag, 0, 0, REGEXP_DEADLINE_MS) === 'timed-out') {
    box.port.close();
    void box.worker.terminate();
    // The next worker starts now, while the audit goes on, rather than when it is next needed.
    sandbox = openSandbox();
    overrun.set(key, Math.min(text.length, overrun.get(key) ?? Infinity));
    throw new RegExpTimeoutError(pattern, text.length);
  }
  const reply = receiveMessageOnPort(box.port)?.message as { matched?: boolean; error?: string } | undefined;
  if (reply?.error !== undefined) throw new SyntaxError(reply.error);
  return reply?.matched === true;
}
