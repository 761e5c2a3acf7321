const MAX_ENTRIES = 256;
/** Total length of the cached keys (UTF-16 units), so hostile megabyte schemas cannot pile up. */
const MAX_KEY_CHARS = 8 * 1024 * 1024;

/** A first-in-first-out cache keyed by JSON text, bounded by entry count and total key length. */
export class TextCache<V> {
  private readonly entries = new Map<string, V>();
  private keyChars = 0;

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    if (key.length > MAX_KEY_CHARS || this.entries.has(key)) return;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < MAX_ENTRIES && this.keyChars + key.length <= MAX_KEY_CHARS) break;
      this.entries.delete(oldest);
      this.keyChars -= oldest.length;
    }
    this.entries.set(key, value);
    this.keyChars += key.length;
  }
}
