import { PROTOCOL_VERSION } from './constants.js';
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
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': PROTOCOL_VERSION,
  };
  if (method !== undefined) headers['Mcp-Method'] = method;
  if (method === 'tools/call' && typeof toolName === 'string') headers['Mcp-Name'] = encodeHeaderValue(toolName);
  defects.at.httpHeaders(headers, method, toolName);
  return headers;
}
