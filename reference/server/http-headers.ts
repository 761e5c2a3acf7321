import { isObject } from '../../src/core/jsonrpc.js';
import type { ActiveDefects } from './defects/active.js';
import type { HeaderRule, HeaderRules, RequestHeaders } from './defects/seams/transports.js';
import { headerAnnotations, valueAtPath } from './header-annotations.js';
import { decodeHeaderValue } from './header-value.js';
import { headerMismatch } from './protocol-error.js';
import type { RequestMeta } from './request-meta.js';
import { findTool } from './tools.js';

/** Request headers as node:http exposes them: names lower-cased. */
export type HeaderBag = RequestHeaders;

const CHECKED: HeaderRule = { required: true, comparedWithBody: true, anyCase: false };

/** The conforming header rules, as the active defects change them. */
function headerRules(defects: ActiveDefects): HeaderRules {
  const rules: HeaderRules = {
    protocolVersion: { ...CHECKED },
    method: { ...CHECKED },
    name: { ...CHECKED },
    param: {
      required: true,
      requiredForNull: false,
      refused: false,
      base64Decoded: true,
      charsChecked: true,
      comparedWithBody: true,
    },
  };
  defects.at.headerRules(rules);
  return rules;
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
  const rules = headerRules(defects);
  expectHeader(headers, 'MCP-Protocol-Version', meta.protocolVersion, (value) => value, rules.protocolVersion);
  expectHeader(headers, 'Mcp-Method', method, (value) => value, rules.method);
  if (method === 'tools/call') validateToolCallHeaders(headers, params, rules);
}

function validateToolCallHeaders(headers: HeaderBag, params: Record<string, unknown>, rules: HeaderRules): void {
  // Malformed params are left to the tools/call validation, which answers -32602.
  if (typeof params.name !== 'string') return;
  expectHeader(headers, 'Mcp-Name', params.name, decodeHeaderValue, rules.name);
  const tool = findTool(params.name);
  const args = params.arguments;
  if (!tool || !isObject(args)) return;
  const rule = rules.param;
  for (const annotation of headerAnnotations(tool.definition.inputSchema)) {
    const value = valueAtPath(args, annotation.path);
    const name = `Mcp-Param-${annotation.header}`;
    const raw = headerValue(headers, name);
    if (value === null && raw === undefined && rule.requiredForNull) {
      throw headerMismatch(`the ${name} header is required for arguments.${annotation.path.join('.')}`);
    }
    if (value === undefined || value === null || typeof value === 'object') continue;
    if (raw === undefined && !rule.required) continue;
    if (raw === undefined)
      throw headerMismatch(`the ${name} header is required because arguments.${annotation.path.join('.')} is set`);
    if (rule.refused) throw headerMismatch(`${name} header value is not accepted`);
    // Left undecoded, the value still may not hold invalid characters.
    const decoded = rule.base64Decoded
      ? decodeHeaderValue(raw, rule.charsChecked)
      : /^[\t\x20-\x7e]*$/.test(raw)
        ? raw
        : undefined;
    if (decoded === undefined) throw headerMismatch(`the ${name} header value is not valid`);
    if (!sameValue(decoded, value) && rule.comparedWithBody) {
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
