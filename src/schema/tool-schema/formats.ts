import { walkSubschemas } from './walk.js';

/** Whether some subschema of `schema` has a `format` keyword (a string), walked by keyword position. */
export function usesFormat(schema: unknown): boolean {
  let found = false;
  walkSubschemas(schema, (node) => {
    if (typeof node.format === 'string') found = true;
  });
  return found;
}
