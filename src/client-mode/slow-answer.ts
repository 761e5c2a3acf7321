import { CALL_TIMEOUT_MS } from './driver-contract.js';

/**
 * slow_answer (timeout scenario) is answered this late: well past the call timeout of the driver contract, so that a
 * client that keeps to it has given up by then, even on a loaded machine. A client without a timeout still ends.
 */
export const SLOW_ANSWER_MS = CALL_TIMEOUT_MS + 3_000;
/**
 * While slow_answer waits, progress goes out this often when the request asked for it (a timeout must not reset
 * forever).
 */
export const SLOW_PROGRESS_EVERY_MS = 400;

/** The nth progress notification of slow_answer, for the request's progress token. */
export function slowProgress(token: string | number, n: number): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: token, progress: n, message: 'still working' },
  };
}
