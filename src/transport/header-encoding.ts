const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function looksLikeSentinel(value: string): boolean {
  return value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
}

function isDecodableSentinel(value: string): boolean {
  return looksLikeSentinel(value) && value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length;
}

function hasOuterWhitespace(value: string): boolean {
  return /^[ \t]|[ \t]$/.test(value);
}

/**
 * True when `value` may be sent verbatim as an MCP header value: printable ASCII and space only
 * (a tab is a control character, so it forces Base64), no leading/trailing whitespace,
 * and no resemblance to the Base64 sentinel.
 */
export function isPlainHeaderSafe(value: string): boolean {
  return PRINTABLE_ASCII.test(value) && !hasOuterWhitespace(value) && !looksLikeSentinel(value);
}

function toHeaderString(value: string | number | boolean): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (!Number.isFinite(value)) throw new RangeError(`cannot encode non-finite number ${value} as a header value`);
  return Object.is(value, -0) ? '0' : String(value);
}

/** Encodes a parameter (or `Mcp-Name`) value per the spec's "Value Encoding" rules. */
export function encodeHeaderValue(value: string | number | boolean): string {
  const text = toHeaderString(value);
  if (isPlainHeaderSafe(text)) return text;
  return SENTINEL_PREFIX + Buffer.from(text, 'utf8').toString('base64') + SENTINEL_SUFFIX;
}

/** Reverses `encodeHeaderValue`; values without the exact lowercase sentinel are literal. */
export function decodeHeaderValue(raw: string): string {
  if (!isDecodableSentinel(raw)) return raw;
  const payload = raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length);
  if (!STANDARD_BASE64.test(payload)) throw new Error(`invalid Base64 in header value: ${raw}`);
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
}
