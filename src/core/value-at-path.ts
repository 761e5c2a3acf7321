import { isObject } from './jsonrpc.js';

/**
 * The instance value at an `x-mcp-header` annotated property's path (`properties` keys from the root); undefined when
 * absent. One home for the auditor's transport and client checks and the reference client.
 */
export function valueAtPath(args: unknown, path: readonly string[]): unknown {
  let current: unknown = args;
  for (const key of path) {
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}
