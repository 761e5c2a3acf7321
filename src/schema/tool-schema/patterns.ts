import { isObject } from '../../core/jsonrpc.js';
import { escapePointerToken } from './json-pointer.js';
import { byPointer, walkSubschemas } from './walk.js';

export interface SchemaPattern {
  /** JSON pointer of the `pattern` keyword, or of the `patternProperties` key. */
  at: string;
  keyword: 'pattern' | 'patternProperties';
  pattern: string;
}

/** Every `pattern` and `patternProperties` key of the subschemas of `schema`, walked by keyword position. */
export function findPatterns(schema: unknown): SchemaPattern[] {
  const found: SchemaPattern[] = [];
  walkSubschemas(schema, (node, at) => {
    if (typeof node.pattern === 'string')
      found.push({ at: `${at}/pattern`, keyword: 'pattern', pattern: node.pattern });
    if (!isObject(node.patternProperties)) return;
    for (const name of Object.keys(node.patternProperties)) {
      found.push({
        at: `${at}/patternProperties/${escapePointerToken(name)}`,
        keyword: 'patternProperties',
        pattern: name,
      });
    }
  });
  return byPointer(found);
}

/** Why the ECMA-262 engine (RegExp with the `u` flag) refuses `pattern`, or undefined when it compiles. */
export function ecmaRegExpProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
