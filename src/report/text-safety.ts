/**
 * Making untrusted (target-controlled) text harmless for terminals and XML.
 */

/** C0 controls, DEL and C1 controls (0x9b is an 8-bit CSI). */
// eslint-disable-next-line no-control-regex -- the control characters a terminal acts on
const TERMINAL_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/**
 * Bidirectional marks/overrides/isolates ("Trojan Source"), line/paragraph separators, zero-width
 * space, word joiner and invisible operators, BOM, interlinear annotation controls, the noncharacters U+FFFE/U+FFFF,
 * and the Unicode tag characters (text no one sees, which a model still reads).
 */
const TERMINAL_INVISIBLE =
  /[\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff]|[\u{e0000}-\u{e007f}]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const DEFAULT_MAX_LINE_CHARS = 300;
export const DEFAULT_MAX_LINES = 40;

/** `\x1b` for code units up to 0xff, `\u202e` above, `\u{e0041}` beyond the Basic Multilingual Plane. */
export function visibleEscape(codePoint: number): string {
  if (codePoint <= 0xff) return `\\x${codePoint.toString(16).padStart(2, '0')}`;
  return codePoint <= 0xffff ? `\\u${codePoint.toString(16).padStart(4, '0')}` : `\\u{${codePoint.toString(16)}}`;
}

/**
 * Renders every control, bidi and separator character (including newlines) and every lone
 * surrogate as a visible escape, so the text cannot move the cursor, recolour or reorder output.
 */
export function escapeForTerminal(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const isLoneSurrogate = char.length === 1 && code >= 0xd800 && code <= 0xdfff;
    out += TERMINAL_CONTROL.test(char) || TERMINAL_INVISIBLE.test(char) || isLoneSurrogate ? visibleEscape(code) : char;
  }
  return out;
}

/** Cuts text to `maxChars` code points, saying how much was dropped. */
export function capLength(text: string, maxChars: number): string {
  const chars = Array.from(text);
  if (chars.length <= maxChars) return text;
  return `${chars.slice(0, maxChars).join('')}…[+${chars.length - maxChars} chars]`;
}

export interface TerminalLineOptions {
  maxLineChars?: number;
  maxLines?: number;
}

/**
 * Splits untrusted text on its newlines into terminal-safe, length-capped lines.
 * Too many lines end with a line saying how many were omitted.
 */
export function terminalLines(text: string, options: TerminalLineOptions = {}): string[] {
  const maxLineChars = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const raw = text.split(/\r?\n/);
  const kept = raw.slice(0, maxLines).map((line) => capLength(escapeForTerminal(line), maxLineChars));
  if (raw.length > maxLines) kept.push(`…[+${raw.length - maxLines} more lines]`);
  return kept;
}

/** One terminal-safe line: newlines are escaped too, length is capped. */
export function terminalInline(text: string, maxChars = DEFAULT_MAX_LINE_CHARS): string {
  return capLength(escapeForTerminal(text), maxChars);
}

// eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Removes what XML 1.0 forbids: C0 controls other than tab/LF/CR, U+FFFE, U+FFFF and lone surrogates. */
export function stripXmlForbidden(text: string): string {
  return text.replace(XML_FORBIDDEN, '').replace(LONE_SURROGATE, '');
}
