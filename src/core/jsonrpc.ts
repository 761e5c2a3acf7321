/** JSON-RPC 2.0 shapes as we send them and as we receive them (received ones are untrusted: `unknown`). */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A message received from the target, already JSON-parsed but not validated. */
export type Received = Record<string, unknown>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isResponse(message: unknown): message is Received {
  return isObject(message) && 'id' in message && !('method' in message);
}

export function isNotification(message: unknown): message is Received {
  return isObject(message) && 'method' in message && !('id' in message);
}

export function isServerRequest(message: unknown): message is Received {
  return isObject(message) && 'method' in message && 'id' in message;
}

export function resultOf(message: unknown): Record<string, unknown> | undefined {
  return isObject(message) && isObject(message.result) ? message.result : undefined;
}

export function errorOf(message: unknown): { code: unknown; message: unknown; data?: unknown } | undefined {
  return isObject(message) && isObject(message.error)
    ? (message.error as { code: unknown; message: unknown; data?: unknown })
    : undefined;
}
