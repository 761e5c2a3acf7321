import { terminalInline } from './text-safety.js';

export const MAX_CELL_CHARS = 200;

/**
 * Target text made inert for Markdown: one line, control characters shown escaped, markup characters backslash-escaped.
 */
export function markdownInline(text: string, maxChars = MAX_CELL_CHARS): string {
  return terminalInline(text, maxChars).replace(/[\\`*_{}[\]()<>#+!|~]/g, (c) => `\\${c}`);
}

/** Target text as an inline code span: one line, escaped controls, no backtick that could end the span. */
export function markdownCode(text: string, maxChars = MAX_CELL_CHARS): string {
  return `\`${terminalInline(text, maxChars).replace(/`/g, "'")}\``;
}
