import type { JsonRpcId } from '../../src/core/jsonrpc.js';
import type { ProtocolError } from './protocol-error.js';

export type OutgoingMessage = Record<string, unknown>;

export function resultResponse(id: JsonRpcId, result: Record<string, unknown>): OutgoingMessage {
  return { jsonrpc: '2.0', id, result };
}

export function errorResponse(id: JsonRpcId | null, error: ProtocolError): OutgoingMessage {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  return { jsonrpc: '2.0', id, error: body };
}

export function notification(method: string, params: Record<string, unknown>): OutgoingMessage {
  return { jsonrpc: '2.0', method, params };
}
