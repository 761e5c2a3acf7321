import { isObject } from '../../src/core/jsonrpc.js';
import type { ActiveDefects } from './defects/active.js';
import { headerAnnotations, valueAtPath } from './header-annotations.js';
import { decodeHeaderValue } from './header-value.js';
import { headerMismatch } from './protocol-error.js';
import type { RequestMeta } from './request-meta.js';
import { findTool } from './tools.js';

/** Request headers as node:http exposes them: names lower-cased. */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

/** How one standard header is checked; anything short of both is a reference-server defect. */
interface HeaderRule {
  required: boolean;
  comparedWithBody: boolean;
  /** Defect method-header-case-insensitive: the value matches the body whatever its case. */
  anyCase?: boolean;
}

/**
 * Streamable HTTP header/body consistency (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*).
 * Throws -32020 (HTTP 400) on the first problem.
 */
export function validateRequestHeaders(
  headers: HeaderBag,
  method: string,
  params: Record<string, unknown>,
  meta: RequestMeta,
  defects: ActiveDefects,
): void {
  expectHeader(headers, 'MCP-Protocol-Version', meta.protocolVersion, (value) => value, {
    required: !defects.has('protocol-header-optional'),
    comparedWithBody: !defects.has('protocol-header-mismatch-ignored'),
  });
  expectHeader(headers, 'Mcp-Method', method, (value) => value, {
    required: !defects.has('method-header-optional'),
    comparedWithBody: !defects.has('method-header-mismatch-ignored'),
    anyCase: defects.has('method-header-case-insensitive'),
  });
  if (method === 'tools/call') validateToolCallHeaders(headers, params, defects);
}

function validateToolCallHeaders(headers: HeaderBag, params: Record<string, unknown>, defects: ActiveDefects): void {
  // Malformed params are left to the tools/call validation, which answers -32602.
  if (typeof params.name !== 'string') return;
  expectHeader(headers, 'Mcp-Name', params.name, decodeHeaderValue, {
    required: !defects.has('name-header-optional'),
    comparedWithBody: !defects.has('name-header-mismatch-ignored'),
  });
  const tool = findTool(params.name);
  const args = params.arguments;
  if (!tool || !isObject(args)) return;
  for (const annotation of headerAnnotations(tool.definition.inputSchema)) {
    const value = valueAtPath(args, annotation.path);
    const name = `Mcp-Param-${annotation.header}`;
    const raw = headerValue(headers, name);
    if (value === null && raw === undefined && defects.has('param-header-expected-for-null')) {
      throw headerMismatch(`the ${name} header is required for arguments.${annotation.path.join('.')}`);
    }
    if (value === undefined || value === null || typeof value === 'object') continue;
    if (raw === undefined && defects.has('param-header-not-required')) continue;
    if (raw === undefined)
      throw headerMismatch(`the ${name} header is required because arguments.${annotation.path.join('.')} is set`);
    if (defects.has('param-header-always-rejected')) throw headerMismatch(`${name} header value is not accepted`);
    // param-header-no-base64 still refuses invalid characters; it only leaves the sentinel form undecoded.
    const decoded = defects.has('param-header-no-base64')
      ? /^[\t\x20-\x7e]*$/.test(raw)
        ? raw
        : undefined
      : decodeHeaderValue(raw, !defects.has('param-header-chars-unchecked'));
    if (decoded === undefined) throw headerMismatch(`the ${name} header value is not valid`);
    if (!sameValue(decoded, value) && !defects.has('param-header-not-compared')) {
      throw headerMismatch(`${name} header value '${decoded}' does not match body value '${String(value)}'`);
    }
  }
}

function expectHeader(
  headers: HeaderBag,
  name: string,
  bodyValue: string,
  decode: (raw: string) => string | undefined,
  rule: HeaderRule,
): void {
  const raw = headerValue(headers, name);
  if (raw === undefined) {
    if (rule.required) throw headerMismatch(`the ${name} header is required`);
    return;
  }
  const decoded = decode(raw);
  if (decoded === undefined) throw headerMismatch(`the ${name} header value is not valid`);
  const same = rule.anyCase ? decoded.toLowerCase() === bodyValue.toLowerCase() : decoded === bodyValue;
  if (rule.comparedWithBody && !same) {
    throw headerMismatch(`${name} header value '${decoded}' does not match body value '${bodyValue}'`);
  }
}

function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function sameValue(header: string, body: unknown): boolean {
  if (typeof body === 'string') return header === body;
  if (typeof body === 'boolean') return header === String(body);
  if (typeof body === 'number') return /^-?\d+(\.\d+)?$/.test(header) && Number(header) === body;
  return false;
}
