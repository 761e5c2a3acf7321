import type { AnySchema } from 'ajv';
import { enumAdvice, walkSubschemas } from '../tool-schema/index.js';
import type { SchemaIssue } from '../validator.js';

export interface CompilableSchema {
  schema: AnySchema;
  /** Restores the issues of the rewritten subschemas to what the empty `enum` says. */
  relabel(issues: SchemaIssue[]): SchemaIssue[];
}

/**
 * ajv refuses to compile an empty `enum` ("enum must have non-empty array"), which the official meta-schemas of
 * draft-06 and later allow: it admits no value, as the schema `false` does. So each one is compiled as a `false` member
 * appended to its subschema's `allOf` (pointers into an existing `allOf` still resolve); `schema` is left as it is.
 */
export function compilableEnums(schema: AnySchema): CompilableSchema {
  if (!enumAdvice(schema).some((advice) => advice.problem === 'empty')) return { schema, relabel: (issues) => issues };
  const copy = structuredClone(schema);
  const rewritten = new Set<string>();
  walkSubschemas(copy, (node, at) => {
    if (!Array.isArray(node.enum) || node.enum.length > 0) return;
    const allOf = Array.isArray(node.allOf) ? node.allOf : [];
    rewritten.add(`#${at}/allOf/${allOf.length}`);
    delete node.enum;
    node.allOf = [...allOf, false];
  });
  // ajv reports a false schema at `<its path>/false schema`.
  const enumPath = (schemaPath: string) => {
    const at = schemaPath.replace(/\/false schema$/, '');
    return rewritten.has(at) ? `${at.replace(/\/allOf\/\d+$/, '')}/enum` : undefined;
  };
  return {
    schema: copy,
    relabel: (issues) =>
      issues.map((issue) => {
        const schemaPath = enumPath(issue.schemaPath);
        return schemaPath
          ? {
              ...issue,
              schemaPath,
              keyword: 'enum',
              params: { allowedValues: [] },
              message: 'must be equal to one of the allowed values, and its enum is empty',
            }
          : issue;
      }),
  };
}
