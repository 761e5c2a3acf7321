import { LATEST_REVISION } from '../../src/core/revision.js';

export const PROTOCOL_VERSION = LATEST_REVISION;
export const SUPPORTED_VERSIONS: readonly string[] = [PROTOCOL_VERSION];

export const SERVER_INFO = { name: 'mcp-tools-conformance-reference-server', version: '0.1.0' } as const;

export const PAGE_SIZE = 4;
export const LIST_TTL_MS = 60_000;
export const DISCOVER_TTL_MS = 60_000;

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;
