import { OTHER_PROTOCOL_VERSION, PROTOCOL_VERSION } from './constants.js';
import type { Defects } from './defects/active.js';
import { encodeHeaderValue } from './header-value.js';

/** Content negotiation and the standard MCP headers mirrored from a message body. */
export function standardHeaders(
  method: string | undefined,
  toolName: unknown,
  defects: Defects,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: defects.has('accept-json-only') ? 'application/json' : 'application/json, text/event-stream',
  };
  if (!(method === 'tools/list' && defects.has('no-protocol-version-header'))) {
    const mismatch = method === 'tools/call' && defects.has('protocol-version-header-mismatch');
    headers['MCP-Protocol-Version'] = mismatch ? OTHER_PROTOCOL_VERSION : PROTOCOL_VERSION;
  }
  if (method !== undefined && !(method === 'tools/list' && defects.has('no-mcp-method-header'))) {
    headers['Mcp-Method'] = method;
  }
  if (method === 'tools/call' && typeof toolName === 'string') {
    const encoded = encodeHeaderValue(toolName);
    headers['Mcp-Name'] =
      defects.has('mcp-name-percent-encoded') && encoded !== toolName ? encodeURIComponent(toolName) : encoded;
  }
  return headers;
}
