import { ErrorCode, SUPPORTED_VERSIONS } from './constants.js';

/** A JSON-RPC error the handler answers with, plus the HTTP status that goes with it. */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly httpStatus: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

export const parseError = (detail: string): ProtocolError =>
  new ProtocolError(ErrorCode.ParseError, `Parse error: ${detail}`, 400);

export const invalidRequest = (detail: string): ProtocolError =>
  new ProtocolError(ErrorCode.InvalidRequest, `Invalid request: ${detail}`, 400);

export const methodNotFound = (message: string, data?: unknown): ProtocolError =>
  new ProtocolError(ErrorCode.MethodNotFound, message, 404, data);

/** Malformed request metadata: HTTP 400 is mandatory for these. */
export const invalidMeta = (detail: string): ProtocolError =>
  new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${detail}`, 400);

/** Method-level invalid params (unknown tool, bad cursor…): the spec fixes no HTTP status, we use 200. */
export const invalidParams = (message: string): ProtocolError =>
  new ProtocolError(ErrorCode.InvalidParams, message, 200);

export const unsupportedVersion = (requested: string): ProtocolError =>
  new ProtocolError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', 400, {
    supported: [...SUPPORTED_VERSIONS],
    requested,
  });

export const missingCapability = (message: string, requiredCapabilities: Record<string, unknown>): ProtocolError =>
  new ProtocolError(ErrorCode.MissingRequiredClientCapability, message, 400, { requiredCapabilities });

export const headerMismatch = (detail: string): ProtocolError =>
  new ProtocolError(ErrorCode.HeaderMismatch, `Header mismatch: ${detail}`, 400);
