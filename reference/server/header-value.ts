const PREFIX = '=?base64?';
const SUFFIX = '?=';
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes an `Mcp-Name` / `Mcp-Param-*` header value: the `=?base64?…?=` sentinel form is
 * Base64 of UTF-8, anything else is literal. Returns undefined for invalid characters or
 * undecodable Base64.
 */
export function decodeHeaderValue(raw: string, checkChars = true): string | undefined {
  if (checkChars && !HEADER_SAFE.test(raw)) return undefined;
  const isSentinel = raw.length >= PREFIX.length + SUFFIX.length && raw.startsWith(PREFIX) && raw.endsWith(SUFFIX);
  if (!isSentinel) return raw;
  const encoded = raw.slice(PREFIX.length, raw.length - SUFFIX.length);
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
}

/** The client-side encoding: plain when header-safe, the Base64 sentinel form otherwise. */
export function encodeHeaderValue(value: string): string {
  const plain =
    /^[\x20-\x7e]*$/.test(value) &&
    !/^[ \t]|[ \t]$/.test(value) &&
    !(value.startsWith(PREFIX) && value.endsWith(SUFFIX));
  return plain ? value : `${PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SUFFIX}`;
}
