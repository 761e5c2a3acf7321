import type { Revision } from '../../core/revision.js';
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
import * as R2025_11_25 from './revision-2025-11-25.js';
import * as R2025_06_18 from './revision-2025-06-18.js';
import * as R2025_03_26 from './revision-2025-03-26.js';
import * as R2024_11_05 from './revision-2024-11-05.js';
import { ServerCapabilities } from './server-capabilities.js';
import { CallToolResult, ListToolsResult, Tool } from './tools.js';

export type WireSchemaName =
  | 'JSONRPCMessage'
  | 'JSONRPCRequest'
  | 'JSONRPCNotification'
  | 'JSONRPCResultResponse'
  | 'JSONRPCErrorResponse'
  | 'JSONRPCBatchResponse'
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

/** Plain JSON-RPC codes, meaningful on every revision. */
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

const SCHEMAS_2025_11_25: WireSchemaTable = {
  ...ENVELOPE,
  ...JSON_RPC_ERRORS,
  Implementation,
  ContentBlock,
  ServerCapabilities: R2025_11_25.ServerCapabilities,
  InitializeResult: R2025_11_25.InitializeResult,
  ListToolsResult: R2025_11_25.ListToolsResult,
  Tool: R2025_11_25.Tool,
  CallToolResult: R2025_11_25.CallToolResult,
};

/** What the older initialize revisions define, each in its own module under these names. */
const INITIALIZE_NAMES = [
  'JSONRPCMessage',
  'JSONRPCRequest',
  'JSONRPCNotification',
  'JSONRPCResultResponse',
  'JSONRPCErrorResponse',
  'Implementation',
  'ContentBlock',
  'ServerCapabilities',
  'InitializeResult',
  'ListToolsResult',
  'Tool',
  'CallToolResult',
] as const satisfies readonly WireSchemaName[];

function initializeTable(
  shapes: Readonly<Record<(typeof INITIALIZE_NAMES)[number], object>> & { readonly JSONRPCBatchResponse?: object },
): WireSchemaTable {
  const named = INITIALIZE_NAMES.map((name) => [name, shapes[name]] as const);
  const batch = shapes.JSONRPCBatchResponse ? { JSONRPCBatchResponse: shapes.JSONRPCBatchResponse } : {};
  return { ...JSON_RPC_ERRORS, ...Object.fromEntries(named), ...batch };
}

/** One schema set per revision (what a revision changed is in its own module: revision-<revision>.ts). */
export const WIRE_SCHEMAS: Readonly<Record<Revision, WireSchemaTable>> = {
  '2026-07-28': CURRENT,
  '2025-11-25': SCHEMAS_2025_11_25,
  '2025-06-18': initializeTable(R2025_06_18),
  '2025-03-26': initializeTable(R2025_03_26),
  '2024-11-05': initializeTable(R2024_11_05),
};
