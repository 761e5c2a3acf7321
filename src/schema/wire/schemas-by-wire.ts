import type { Wire } from '../../model/wire.js';
import { ContentBlock } from './content-blocks.js';
import { DiscoverResult } from './discover.js';
import {
  HeaderMismatchError,
  InvalidParamsError,
  MethodNotFoundError,
  MissingRequiredClientCapabilityError,
  UnsupportedProtocolVersionError,
} from './errors.js';
import { Implementation } from './implementation.js';
import { InputRequiredResult } from './input-required.js';
import {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
} from './json-rpc-envelope.js';
import {
  LegacyCallToolResult,
  LegacyInitializeResult,
  LegacyListToolsResult,
  LegacyServerCapabilities,
  LegacyTool,
} from './legacy-2025-11-25.js';
import { ServerCapabilities } from './server-capabilities.js';
import { CallToolResult, ListToolsResult, Tool } from './tools.js';

export type WireSchemaName =
  | 'JSONRPCMessage'
  | 'JSONRPCRequest'
  | 'JSONRPCNotification'
  | 'JSONRPCResultResponse'
  | 'JSONRPCErrorResponse'
  | 'DiscoverResult'
  | 'ServerCapabilities'
  | 'ListToolsResult'
  | 'Tool'
  | 'CallToolResult'
  | 'ContentBlock'
  | 'InputRequiredResult'
  | 'UnsupportedProtocolVersionError'
  | 'MissingRequiredClientCapabilityError'
  | 'HeaderMismatchError'
  | 'InvalidParamsError'
  | 'MethodNotFoundError'
  | 'InitializeResult'
  | 'Implementation';

export type WireSchemaTable = Readonly<Partial<Record<WireSchemaName, object>>>;

const ENVELOPE = {
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCNotification,
  JSONRPCResultResponse,
  JSONRPCErrorResponse,
} as const;

/** Plain JSON-RPC codes, meaningful on both wires. */
const JSON_RPC_ERRORS = { InvalidParamsError, MethodNotFoundError } as const;

const CURRENT: WireSchemaTable = {
  ...ENVELOPE,
  ...JSON_RPC_ERRORS,
  Implementation,
  ContentBlock,
  ServerCapabilities,
  DiscoverResult,
  ListToolsResult,
  Tool,
  CallToolResult,
  InputRequiredResult,
  UnsupportedProtocolVersionError,
  MissingRequiredClientCapabilityError,
  HeaderMismatchError,
};

const LEGACY: WireSchemaTable = {
  ...ENVELOPE,
  ...JSON_RPC_ERRORS,
  Implementation,
  ContentBlock,
  ServerCapabilities: LegacyServerCapabilities,
  InitializeResult: LegacyInitializeResult,
  ListToolsResult: LegacyListToolsResult,
  Tool: LegacyTool,
  CallToolResult: LegacyCallToolResult,
};

export const WIRE_SCHEMAS: Readonly<Partial<Record<Wire, WireSchemaTable>>> = {
  '2026-07-28': CURRENT,
  '2025-11-25': LEGACY,
};
