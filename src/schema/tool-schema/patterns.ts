import { isObject } from '../../jsonrpc.js';
import { escapePointerToken } from './json-pointer.js';
import { slotOfKeyword, slotOfMember } from './subschema-slots.js';

export interface SchemaPattern {
  /** JSON pointer of the `pattern` keyword, or of the `patternProperties` key. */
  at: string;
  keyword: 'pattern' | 'patternProperties';
  pattern: string;
}

const MAX_NODES = 20_000;

/** Every `pattern` and `patternProperties` key of the subschemas of `schema`, walked by keyword position. */
export function findPatterns(schema: unknown): SchemaPattern[] {
  const found: SchemaPattern[] = [];
  const stack: { node: unknown; at: string }[] = [{ node: schema, at: '' }];
  let visited = 0;
  while (stack.length > 0 && ++visited <= MAX_NODES) {
    const { node, at } = stack.pop()!;
    if (!isObject(node)) continue;
    if (typeof node.pattern === 'string') found.push({ at: `${at}/pattern`, keyword: 'pattern', pattern: node.pattern });
    for (const [keyword, value] of Object.entries(node)) {
      const here = `${at}/${escapePointerToken(keyword)}`;
      const slot = slotOfKeyword(keyword, value);
      if (slot === 'schema') stack.push({ node: value, at: here });
      else if (slot === 'schema-list') (value as unknown[]).forEach((member, i) => stack.push({ node: member, at: `${here}/${i}` }));
      else if (slot === 'schema-map') {
        for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
          const memberAt = `${here}/${escapePointerToken(name)}`;
          if (keyword === 'patternProperties') found.push({ at: memberAt, keyword, pattern: name });
          if (slotOfMember(member) === 'schema') stack.push({ node: member, at: memberAt });
        }
      }
    }
  }
  return found.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
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
