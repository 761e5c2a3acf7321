import { canonicalJson } from '../../core/canonical-json.js';
import { byPointer, walkSubschemas } from './walk.js';

/**
 * An `enum` that the meta-schema allows but the dialect's text advises against. JSON Schema draft-06, draft-07, 2019-09
 * and 2020-12 say of `enum`: "The value of this keyword MUST be an array. This array SHOULD have at least one element.
 * Elements in the array SHOULD be unique." (draft-04 makes both a MUST, and its meta-schema enforces them).
 */
export interface EnumAdvice {
  /** JSON pointer of the `enum` keyword. */
  at: string;
  problem: 'empty' | 'duplicates';
  /** The repeated elements, once each (for `duplicates`). */
  repeated?: unknown[];
}

export const ENUM_SHOULD_TEXT = 'This array SHOULD have at least one element. Elements in the array SHOULD be unique.';

/** The empty and the repeating `enum` arrays of the subschemas of `schema`, walked by keyword position. */
export function enumAdvice(schema: unknown): EnumAdvice[] {
  const found: EnumAdvice[] = [];
  walkSubschemas(schema, (node, at) => {
    const values = node.enum;
    if (!Array.isArray(values)) return;
    if (values.length === 0) {
      found.push({ at: `${at}/enum`, problem: 'empty' });
      return;
    }
    const seen = new Set<string>();
    const repeated = new Map<string, unknown>();
    for (const value of values) {
      const text = canonicalJson(value);
      if (seen.has(text)) repeated.set(text, value);
      seen.add(text);
    }
    if (repeated.size > 0) found.push({ at: `${at}/enum`, problem: 'duplicates', repeated: [...repeated.values()] });
  });
  return byPointer(found);
}
