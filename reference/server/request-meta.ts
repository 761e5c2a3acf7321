import { isObject } from '../../src/core/jsonrpc.js';
import { META_CLIENT_CAPABILITIES, META_LOG_LEVEL, META_PROTOCOL_VERSION } from '../../src/core/meta-keys.js';
import { invalidMeta } from './protocol-error.js';

export type ProgressToken = string | number;

export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  progressToken?: ProgressToken;
  /** io.modelcontextprotocol/logLevel: the request asks for log messages at or above it. */
  logLevel?: string;
}

export const LOG_LEVELS: readonly string[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/**
 * Reads the per-request `_meta` every 2026-07-28 request must carry; throws -32602 (HTTP 400) when malformed.
 * `anyLogLevel` lets an unknown log level through.
 */
export function readRequestMeta(params: unknown, anyLogLevel = false): RequestMeta {
  if (!isObject(params)) throw invalidMeta('params with _meta is required');
  const meta = params._meta;
  if (!isObject(meta)) throw invalidMeta('params._meta is required and must be an object');
  const protocolVersion = meta[META_PROTOCOL_VERSION];
  if (typeof protocolVersion !== 'string') throw invalidMeta(`_meta["${META_PROTOCOL_VERSION}"] must be a string`);
  const clientCapabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isObject(clientCapabilities)) throw invalidMeta(`_meta["${META_CLIENT_CAPABILITIES}"] must be an object`);
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined && !anyLogLevel && (typeof logLevel !== 'string' || !LOG_LEVELS.includes(logLevel))) {
    throw invalidMeta(`_meta["${META_LOG_LEVEL}"] is not a logging level`);
  }
  const token = meta.progressToken;
  const progressToken = typeof token === 'string' || Number.isInteger(token) ? (token as ProgressToken) : undefined;
  return { protocolVersion, clientCapabilities, progressToken, ...(typeof logLevel === 'string' ? { logLevel } : {}) };
}

/** `elicitation: {}` means form mode; otherwise form mode must be listed explicitly. */
export function supportsFormElicitation(capabilities: Record<string, unknown>): boolean {
  const elicitation = capabilities.elicitation;
  if (!isObject(elicitation)) return false;
  return Object.keys(elicitation).length === 0 || isObject(elicitation.form);
}
