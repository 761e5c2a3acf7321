/**
 * UTF-8 size of a string once JSON-encoded. A string with more UTF-16 units than `budget` cannot fit,
 * so its length is returned without encoding it (each unit costs at least one byte).
 */
export function jsonStringBytes(text: string, budget: number): number {
  if (text.length > budget) return text.length;
  return Buffer.byteLength(JSON.stringify(text), 'utf8');
}

/** Size of a JSON scalar; values JSON cannot carry (undefined, functions, symbols) count as `null`. */
export function jsonScalarBytes(value: unknown, budget: number): number {
  if (typeof value === 'string') return jsonStringBytes(value, budget);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value).length;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return 4;
}
