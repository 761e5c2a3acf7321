import { truncateString } from '../evidence-bounds.js';
import { escapeForTerminal } from '../text-safety.js';

const HTML_SPECIAL: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes the five characters that can open markup or leave an attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_SPECIAL[char] ?? char);
}

/**
 * Untrusted text for one line of the page: cut to `maxChars` with a visible marker, every control, bidi and
 * separator character (newlines included) shown as an escape such as `\x1b`, then HTML-escaped.
 */
export function inlineText(text: string, maxChars: number): string {
  return escapeHtml(escapeForTerminal(truncateString(text, maxChars)));
}

/** Like {@link inlineText}, but keeps line breaks (for `white-space: pre-wrap` blocks). */
export function blockText(text: string, maxChars: number): string {
  return escapeHtml(
    truncateString(text, maxChars)
      .split(/\r?\n/)
      .map((line) => escapeForTerminal(line))
      .join('\n'),
  );
}
