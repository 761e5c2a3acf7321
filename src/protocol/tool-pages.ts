import { createHash } from 'node:crypto';

/** How much page text an audit shares; past it, new pages are kept as received (still correct, just not shared). */
export const MAX_INTERNED_PAGE_CHARS = 32 * 1024 * 1024;

/**
 * The key of a tools/list page: the SHA-256 of the JSON text of its `tools`. Walks compare pages by it instead of
 * keeping their texts (10,000 tools are 6.7 MB of text, held once by the audit and once more by each walk in progress).
 */
export function pageKey(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/**
 * The `tools` arrays of tools/list pages by the digest of their JSON text (`pageKey`), shared by every connection of
 * one audit. A listing walked again (for order, per connection, per clientInfo, after calls) mostly repeats pages
 * already received: a page whose text is the same as an earlier one's takes that page's parsed array instead of keeping
 * a second parsed copy. The texts are equal, so the evidence written is byte for byte the same; 10,000 tools walked
 * nine times keep one parse.
 */
export class ToolPages {
  private readonly byKey = new Map<string, unknown[]>();
  private chars = 0;

  /**
   * The array to keep for a page whose `tools` serialize to a text of `chars` characters keyed `key`: the first one
   * received with that key.
   */
  intern(key: string, chars: number, tools: unknown[]): unknown[] {
    const earlier = this.byKey.get(key);
    if (earlier !== undefined) return earlier;
    if (this.chars + chars <= MAX_INTERNED_PAGE_CHARS) {
      this.byKey.set(key, tools);
      this.chars += chars;
    }
    return tools;
  }
}
