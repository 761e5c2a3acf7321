import { isObject } from '../core/jsonrpc.js';

/** Above these, json-schema-faker would build values too large to send (or loop for too long). */
const COUNT_KEYWORDS = ['minLength', 'minItems', 'minProperties', 'minContains'] as const;
export const MAX_GENERATED_COUNT = 4_096;
const MAX_PATTERN_REPEAT = 1_000;
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example']);

function largeRepeat(pattern: string): number | undefined {
  for (const match of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    const largest = Math.max(Number(match[1]), match[2] ? Number(match[2]) : 0);
    if (largest > MAX_PATTERN_REPEAT) return largest;
  }
  return undefined;
}

/**
 * Why values of this schema are too large to generate, or undefined. Bounded walk: the schema already passed the size
 * bounds.
 */
export function tooLargeToGenerate(schema: unknown, at = ''): string | undefined {
  if (Array.isArray(schema)) {
    for (const [i, item] of schema.entries()) {
      const found = tooLargeToGenerate(item, `${at}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(schema)) return undefined;
  for (const keyword of COUNT_KEYWORDS) {
    const value = schema[keyword];
    if (typeof value === 'number' && value > MAX_GENERATED_COUNT)
      return `${keyword} ${value} at ${at || '/'} is over ${MAX_GENERATED_COUNT}`;
  }
  if (typeof schema['pattern'] === 'string') {
    const repeat = largeRepeat(schema['pattern']);
    if (repeat !== undefined) return `pattern at ${at || '/'} repeats ${repeat} times (over ${MAX_PATTERN_REPEAT})`;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(key)) continue;
    const found = tooLargeToGenerate(value, `${at}/${key}`);
    if (found) return found;
  }
  return undefined;
}
