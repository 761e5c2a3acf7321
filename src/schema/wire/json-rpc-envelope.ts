/**
 * JSON-RPC 2.0 envelopes as MCP uses them (2025-11-25 and 2026-07-28; older revisions revise them in their own files).
 * Payload shapes live in the other wire files.
 */

export const JSONRPC_VERSION = { type: 'string', const: '2.0' } as const;

/** Request ids are strings or integers; never null, never fractional. */
export const RequestId = { type: ['string', 'integer'] } as const;

const ParamsObject = { type: 'object' } as const;

export const JSONRPCErrorObject = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'integer' },
    message: { type: 'string' },
    data: {},
  },
} as const;

export const JSONRPCRequest = {
  type: 'object',
  required: ['jsonrpc', 'id', 'method'],
  properties: {
    jsonrpc: JSONRPC_VERSION,
    id: RequestId,
    method: { type: 'string' },
    params: ParamsObject,
  },
} as const;

export const JSONRPCNotification = {
  type: 'object',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: JSONRPC_VERSION,
    method: { type: 'string' },
    params: ParamsObject,
  },
} as const;

export const JSONRPCResultResponse = {
  type: 'object',
  required: ['jsonrpc', 'id', 'result'],
  properties: {
    jsonrpc: JSONRPC_VERSION,
    id: RequestId,
    result: { type: 'object' },
    error: false,
  },
} as const;

/** Builds an error response whose `error` member is the given error-object schema. */
export function errorResponseWith(errorObject: object) {
  return {
    type: 'object',
    required: ['jsonrpc', 'error'],
    properties: {
      jsonrpc: JSONRPC_VERSION,
      // JSON-RPC uses a null id when the request id could not be determined.
      id: { type: ['string', 'integer', 'null'] },
      error: errorObject,
      result: false,
    },
  } as const;
}

export const JSONRPCErrorResponse = errorResponseWith(JSONRPCErrorObject);

/**
 * Any single message made of these four kinds (batches are not part of MCP, except in 2025-03-26). The branch is
 * picked from which members are present, so a malformed message reports the faults of the message kind it is trying
 * to be.
 */
export function messageOf(request: object, notification: object, result: object, error: object) {
  return {
    type: 'object',
    if: { type: 'object', required: ['method'] },
    then: {
      if: { type: 'object', required: ['id'] },
      then: request,
      else: notification,
    },
    else: {
      if: { type: 'object', required: ['error'] },
      then: error,
      else: result,
    },
  } as const;
}

export const JSONRPCMessage = messageOf(
  JSONRPCRequest,
  JSONRPCNotification,
  JSONRPCResultResponse,
  JSONRPCErrorResponse,
);
