/** RFC 5424 severities, least severe first (logging § Log Levels). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export const ERR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  headerMismatch: -32020,
  missingCapability: -32021,
  unsupportedVersion: -32022,
} as const;

/** Errors only a server of the stateless revisions (2026-07-28 on) emits: they identify the era during the probe. */
export const STATELESS_ERROR_CODES: ReadonlySet<number> = new Set([
  ERR.headerMismatch,
  ERR.missingCapability,
  ERR.unsupportedVersion,
]);

/** Methods whose HTTP request carries `Mcp-Name`, and the params field it mirrors. */
export const NAME_HEADER_SOURCE: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};
