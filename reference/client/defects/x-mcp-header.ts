import type { HeaderAnnotation } from '../header-annotations.js';
import { looksLikeSentinel } from '../header-value.js';
import type { Defect } from './define.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** What a client keeping invalid annotations can still put on the wire: token names, first of each spelling. */
function sendable(annotations: readonly HeaderAnnotation[]): HeaderAnnotation[] {
  const seen = new Set<string>();
  return annotations.filter((a) => {
    const folded = a.header.toLowerCase();
    if (!TOKEN.test(a.header) || seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}

/** Defects that the client checks of suites/client/x-mcp-header.ts catch, each breaking one of them. */
export const X_MCP_HEADER_DEFECTS = {
  'x-mcp-header-ignored': {
    check: 'xmcp.client.mirror',
    only: 'http',
    description: 'never sends Mcp-Param-* headers (annotations are still validated)',
    at: {
      paramHeaderRules: (rules) => {
        rules.mirrored = false;
      },
    },
  },
  'null-param-header': {
    check: 'xmcp.client.omit-null',
    only: 'http',
    description: 'sends Mcp-Param-* with the value "null" for a null argument instead of omitting it',
    at: {
      paramHeaderRules: (rules) => {
        rules.omitsNull = false;
      },
    },
  },
  'percent-encoded-params': {
    check: 'enc.client.base64',
    only: 'http',
    description: 'Mcp-Param-* values that need Base64 are percent-encoded instead',
    at: { paramHeaderValue: (text) => (looksLikeSentinel(text) ? undefined : encodeURIComponent(text)) },
  },
  'sentinel-not-encoded': {
    check: 'enc.client.sentinel-collision',
    only: 'http',
    description: 'plain-ASCII Mcp-Param-* values that look like the Base64 sentinel are sent as-is',
    at: { paramHeaderValue: (text) => (looksLikeSentinel(text) && /^[\x20-\x7e]*$/.test(text) ? text : undefined) },
  },
  'boolean-capitalised': {
    check: 'enc.type-conversion',
    only: 'http',
    description: 'boolean Mcp-Param-* values are sent as True/False',
    at: { paramHeaderText: (value) => (typeof value === 'boolean' ? (value ? 'True' : 'False') : undefined) },
  },
  'keeps-invalid-x-mcp-header-tools': {
    check: 'xmcp.client.exclude',
    only: 'http',
    description: 'keeps (lists and calls) tools whose x-mcp-header annotations are invalid',
    at: {
      invalidAnnotations: sendable,
      paramHeaderText: (value, text) => (text === undefined && typeof value === 'number' ? String(value) : undefined),
    },
  },
} as const satisfies Record<string, Defect>;
