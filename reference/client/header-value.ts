const PREFIX = '=?base64?';
const SUFFIX = '?=';

export function looksLikeSentinel(text: string): boolean {
  return text.startsWith(PREFIX) && text.endsWith(SUFFIX);
}

/** Header-safe as a plain value: printable ASCII only, no surrounding space or tab, not sentinel-shaped. */
export function isPlainSafe(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text) && !/^[ \t]|[ \t]$/.test(text) && !looksLikeSentinel(text);
}

export function base64Sentinel(text: string): string {
  return `${PREFIX}${Buffer.from(text, 'utf8').toString('base64')}${SUFFIX}`;
}

/**
 * The value of an `Mcp-Name` or `Mcp-Param-*` header (Streamable HTTP § Value Encoding): the text itself
 * when it is header-safe, else `=?base64?` + Base64 (RFC 4648 §4, padded) of its UTF-8 bytes + `?=`.
 */
export function encodeHeaderValue(text: string): string {
  return isPlainSafe(text) ? text : base64Sentinel(text);
}

/**
 * The text form of an argument value before encoding: strings as-is, integers in decimal, booleans as
 * `true`/`false`. Undefined for values with no header form (non-integral numbers, objects, arrays, null).
 */
export function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value).toString();
  return undefined;
}
