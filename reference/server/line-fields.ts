import { isObject } from '../../src/core/jsonrpc.js';
import { META_LOG_LEVEL } from '../../src/core/meta-keys.js';

function parse(line: string): Record<string, unknown> {
  try {
    const message: unknown = JSON.parse(line);
    return isObject(message) ? message : {};
  } catch {
    return {};
  }
}

/** The request id of a message line, as a key that keeps its JSON type. */
export function requestIdOf(line: string): string {
  return JSON.stringify(parse(line).id) ?? 'undefined';
}

/** The requestId a notifications/cancelled line refers to, keyed like requestIdOf. */
export function cancelledIdOf(line: string): string {
  const params = parse(line).params;
  return JSON.stringify(isObject(params) ? params.requestId : undefined) ?? 'undefined';
}

/** Whether the line is a tools/call of this tool. */
export function callsTool(line: string, name: string): boolean {
  const message = parse(line);
  return message.method === 'tools/call' && isObject(message.params) && message.params.name === name;
}

/** Whether the request asks for log messages (its _meta carries io.modelcontextprotocol/logLevel). */
export function asksForLogs(line: string): boolean {
  const params = parse(line).params;
  return isObject(params) && isObject(params._meta) && META_LOG_LEVEL in params._meta;
}
