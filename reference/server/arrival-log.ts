import { appendFileSync } from 'node:fs';

/**
 * Records what arrives and when, for self-tests of the auditor's pacing and connections (--log-arrivals). Several
 * processes may share the file. Over HTTP the client's port follows the pid (`<pid>:<port>`): one port, one connection.
 */
export type ArrivalLog = (what: string, connection?: string) => void;

export function arrivalLog(path: string | undefined): ArrivalLog | undefined {
  if (path === undefined) return undefined;
  return (what, connection) =>
    appendFileSync(
      path,
      `${(performance.timeOrigin + performance.now()).toFixed(3)} ${process.pid}` +
        `${connection === undefined ? '' : `:${connection}`} ${what}\n`,
    );
}

/** The method of a JSON-RPC message line, or '-' when it has none. */
export function methodOf(text: string): string {
  try {
    const message: unknown = JSON.parse(text);
    if (typeof message === 'object' && message !== null && 'method' in message && typeof message.method === 'string')
      return message.method;
  } catch {
    /* not JSON: recorded as '-' */
  }
  return '-';
}
