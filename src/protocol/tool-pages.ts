/** How much page text an audit keeps as keys; past it, new pages are kept as received (still correct, just not shared). */
export const MAX_INTERNED_PAGE_CHARS = 32 * 1024 * 1024;

/**
 * The `tools` arrays of tools/list pages by their JSON text, shared by every connection of one audit. A listing walked
 * again (for order, per connection, per clientInfo, after calls) mostly repeats pages already received: a page whose
 * text is the same as an earlier one's takes that page's parsed array instead of keeping a second parsed copy. The
 * texts are equal, so the evidence written is byte for byte the same; 10,000 tools walked nine times keep one parse.
 */
export class ToolPages {
  private readonly byText = new Map<string, unknown[]>();
  private chars = 0;

  /** The array to keep for a page whose `tools` serialize to `text`: the first one received with that text. */
  intern(text: string, tools: unknown[]): unknown[] {
    const earlier = this.byText.get(text);
    if (earlier !== undefined) return earlier;
    if (this.chars + text.length <= MAX_INTERNED_PAGE_CHARS) {
      this.byText.set(text, tools);
      this.chars += text.length;
    }
    return tools;
  }
}
