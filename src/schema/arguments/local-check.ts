import { compileArgumentSchema } from './validate.js';
import type { SchemaObject } from './schema-node.js';

const MAX_LOCAL_CHECKS = 64;

/**
 * Checks a value against a subschema on its own by compiling `{allOf: [subschema]}` next to the root's
 * `$schema`, `$defs` and `definitions`, so `#/$defs/…` references still resolve. Other references, or more
 * than a bounded number of checks, give undefined (unknown).
 */
export function localChecker(root: SchemaObject): (schema: SchemaObject, value: unknown) => boolean | undefined {
  let remaining = MAX_LOCAL_CHECKS;
  return (schema, value) => {
    if (remaining <= 0) return undefined;
    remaining -= 1;
    const wrapper: SchemaObject = { allOf: [schema] };
    for (const keyword of ['$schema', '$defs', 'definitions']) {
      if (Object.hasOwn(root, keyword)) wrapper[keyword] = root[keyword];
    }
    const compiled = compileArgumentSchema(wrapper);
    return compiled.ok ? compiled.validator.validate(value).valid : undefined;
  };
}
